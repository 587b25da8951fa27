// The search box of the header (templates/partials/search.html). The index is Pagefind's,
// made when the site is built in parts (generator/outputs/search.py): static files on this site,
// loaded the first time the reader focuses the box, so a page that is only read costs this script
// and nothing more. parts.json lists the parts; the first is loaded and the others merged into it
// (mergeIndex), each with its section as a filter, which the menu "Search in" sets. A docs page
// searches its own version's docs and tutorials; other pages the default version's.
//
const box = document.querySelector("[data-search]");
const SHOWN = 8;          // results at first, and more each time "More results" is pressed
const HIGHLIGHT = "highlight";

if (box) {
  const input = box.querySelector(".site-search-input");
  const panel = box.querySelector(".site-search-results");
  const status = box.querySelector(".site-search-status");
  const list = box.querySelector(".site-search-list");
  const more = box.querySelector(".site-search-more");
  const within = box.querySelector(".site-search-in");
  const section = box.querySelector(".site-search-section");
  let loading = null;
  let asked = "";
  let results = [];         // the current search's results, for "More results"

  const load = () => loading ??= (async () => {
    const base = box.dataset.baseurl;
    const response = await fetch(box.dataset.parts);
    if (!response.ok) throw new Error(`${box.dataset.parts}: ${response.status}`);
    const parts = (await response.json()).parts.filter((part) => !part.version || part.version === box.dataset.version);
    if (!parts.length) throw new Error("no part of the index is searched here");
    const [first, ...others] = parts;
    const pagefind = await import(`${base}pagefind/${first.bundle}pagefind.js`);
    await pagefind.options({ baseUrl: base, excerptLength: 24, mergeFilter: { section: first.section } });
    await Promise.all(others.map((part) => pagefind.mergeIndex(`${base}pagefind/${part.bundle}`,
      { baseUrl: base, mergeFilter: { section: part.section } })));
    await pagefind.init();
    const sections = new Map(parts.map((part) => [part.section, part.label]));
    section.append(...[...sections].map(([value, label]) => new Option(label, value)));
    within.hidden = sections.size < 2;
    return pagefind;
  })();

  const links = () => [...list.querySelectorAll("a"), ...(more.hidden ? [] : [more])];
  const open = (shown) => { panel.hidden = !shown; };

  // Pagefind's excerpt is the page's text with the matched words in <mark>: keep exactly that.
  const excerpt = (html) => {
    const parsed = document.createElement("template");
    parsed.innerHTML = html;                      // a template's content is inert: nothing runs or loads
    const out = document.createElement("span");
    out.className = "site-search-excerpt";
    for (const node of parsed.content.childNodes) {
      const part = node.nodeName === "MARK" ? document.createElement("mark") : document.createTextNode("");
      part.textContent = node.textContent;
      out.append(part);
    }
    return out;
  };

  // Pagefind gives a page's URL as the baseurl (a URL already) and the path the build indexed:
  // the file's, not percent-encoded ("/50%-off.html", "/café 100%25.html"). That path is
  // encoded part by part for the link, and shown as it is.
  const base = box.dataset.baseurl;
  const href = (url) => {
    const at = url.startsWith(base) ? base.length : 0;
    return url.slice(0, at) + url.slice(at).split("/").map(encodeURIComponent).join("/");
  };

  const item = (data) => {
    const link = document.createElement("a");
    link.href = href(data.url) + "?" + new URLSearchParams({ [HIGHLIGHT]: asked });
    const title = document.createElement("span");
    title.className = "site-search-title";
    title.textContent = data.meta.title || data.url;
    const where = document.createElement("span");
    where.className = "site-search-url";
    where.textContent = data.url;
    link.append(title, excerpt(data.excerpt), where);
    const li = document.createElement("li");
    li.append(link);
    return li;
  };

  // A Pagefind index that lacks a word leaves it out of a search of several, or finds pages
  // holding only a part of it ("ann" for "annealing"): a part without the word would find
  // pages one index of the whole site does not. Kept: the pages holding each word that some
  // part holds as it is (a quoted search of it), what one index finds.
  const everyWord = async (pagefind, query, found) => {
    const each = await Promise.all(query.split(/\s+/).map((word) => pagefind.search(`"${word.replaceAll('"', "")}"`)));
    const held = each.filter((search) => search.results.length)
      .map((search) => new Set(search.results.map((result) => result.id)));
    return found.filter((result) => held.every((ids) => ids.has(result.id)));
  };

  const describe = (query, count, shown) => count === 0 ? `No results for “${query}”.`
    : `${count} ${count === 1 ? "result" : "results"} for “${query}”` + (count > shown ? `, the first ${shown}:` : ":");

  const showMore = async () => {
    const query = asked;
    const next = await Promise.all(results.slice(list.children.length, list.children.length + SHOWN)
      .map((result) => result.data()));
    if (query !== asked) return;
    const first = list.children.length;
    list.append(...next.map(item));
    more.hidden = list.children.length >= results.length;
    status.textContent = describe(query, results.length, list.children.length);
    return list.children[first]?.querySelector("a");
  };

  const show = async () => {
    const query = input.value.trim();
    asked = query;
    if (!query) {
      list.replaceChildren();
      more.hidden = true;
      open(false);
      return;
    }
    let pagefind;
    try {
      pagefind = await load();
    } catch (error) {
      status.textContent = "Search is not available here.";
      open(true);
      loading = null;
      return;
    }
    const filters = section.value ? { filters: { section: section.value } } : {};
    const search = await pagefind.debouncedSearch(query, filters, 150);
    if (search === null || query !== asked) return;     // a newer query is on its way
    results = await everyWord(pagefind, query, search.results);
    if (query !== asked) return;
    const found = await Promise.all(results.slice(0, SHOWN).map((result) => result.data()));
    if (query !== asked) return;
    list.replaceChildren(...found.map(item));
    more.hidden = results.length <= SHOWN;
    status.textContent = describe(query, results.length, SHOWN);
    open(true);
  };

  const step = (from, by) => {
    const all = links();
    const at = all.indexOf(from) + by;
    if (at < 0) input.focus();
    else if (at < all.length) all[at].focus();
  };

  more.addEventListener("click", async () => { (await showMore())?.focus(); });
  box.hidden = false;
  input.addEventListener("focus", () => { load().catch(() => {}); if (input.value.trim()) open(true); });
  input.addEventListener("input", show);
  section.addEventListener("change", show);
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      if (panel.hidden) input.value = "";
      open(false);
      input.focus();
    } else if (event.key === "Enter" && event.target === input) {
      event.preventDefault();
      const first = list.querySelector("a");
      if (first) first.click();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && event.target !== section) {
      event.preventDefault();
      const by = event.key === "ArrowDown" ? 1 : -1;
      if (event.target === input) {
        if (by === 1 && !panel.hidden) step(null, 1);
      } else {
        step(event.target, by);
      }
    }
  });
  box.addEventListener("focusout", (event) => {
    if (!box.contains(event.relatedTarget)) open(false);
  });
  document.addEventListener("keydown", (event) => {
    const typing = event.target.closest("input, textarea, select, [contenteditable]");
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      input.focus();
    }
  });
}

// The words a search result was opened for, marked in the page's text (the part search
// indexes, else <main>), the first scrolled into view. Only text nodes are split: no markup
// from the address reaches the page.
const highlight = () => {
  const words = (new URLSearchParams(location.search).get(HIGHLIGHT) || "").split(/\s+/).filter(Boolean);
  const root = document.querySelector("[data-pagefind-body]") || document.querySelector("main");
  if (!words.length || !root) return;
  const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})`, "giu");
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => node.parentElement.closest("script, style, textarea, [data-pagefind-ignore]")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT,
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    const text = node.nodeValue;
    const parts = [];
    let at = 0;
    for (const match of text.matchAll(pattern)) {
      parts.push(document.createTextNode(text.slice(at, match.index)));
      const mark = document.createElement("mark");
      mark.className = "search-highlight";
      mark.textContent = match[0];
      parts.push(mark);
      at = match.index + match[0].length;
    }
    if (parts.length) {
      parts.push(document.createTextNode(text.slice(at)));
      node.replaceWith(...parts);
    }
  }
  document.querySelector("mark.search-highlight")?.scrollIntoView({ block: "center" });
};

highlight();
