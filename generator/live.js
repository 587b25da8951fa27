// sitegen serve: live reload. Injected into pages by the preview server only.
(() => {
  "use strict";
  const script = document.currentScript;
  const page = script.dataset.page;        // this page's output, e.g. "/2019/03/18/post.html"; "" on a 404
  const events = new EventSource(script.dataset.events);
  let overlay = null;

  function showError(message) {
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = "sitegen-error";
      overlay.setAttribute("role", "alert");
      overlay.style.cssText = "position:fixed;inset:0 0 auto 0;z-index:2147483647;max-height:60vh;" +
        "overflow:auto;margin:0;padding:1em 1.5em;background:#2b0b0b;color:#ffd7d7;" +
        "font:14px/1.5 ui-monospace,monospace;border-bottom:4px solid #e5484d;white-space:pre-wrap";
      document.body.append(overlay);
    }
    overlay.textContent = "sitegen: the last rebuild failed; showing the last good build.\n\n" + message;
  }

  function clearError() {
    if (overlay) {
      overlay.remove();
      overlay = null;
    }
  }

  function swapStylesheet(link) {
    const url = new URL(link.href);
    url.searchParams.set("sitegen", Date.now());
    const copy = link.cloneNode();
    copy.href = url.href;
    copy.addEventListener("load", () => link.remove());
    link.after(copy);
  }

  events.addEventListener("failure", (event) => showError(JSON.parse(event.data).message));

  events.addEventListener("change", (event) => {
    clearError();
    const changed = new Set(JSON.parse(event.data).paths);
    if (changed.size === 0) return;
    if (page === "" || changed.has(page)) {
      location.reload();
      return;
    }
    const used = [...document.querySelectorAll("[src]")].map((e) => new URL(e.src, location.href).pathname);
    if (used.some((path) => changed.has(path))) {
      location.reload();
      return;
    }
    for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
      if (changed.has(new URL(link.href, location.href).pathname)) swapStylesheet(link);
    }
  });
})();
