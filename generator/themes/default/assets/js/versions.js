// Progressive enhancement of the docs version switcher. Without this script it is
// a list of links to the same page in each version (or that version's index when
// the page does not exist there). With it, the list becomes a compact menu, and
// switching keeps the reader's place on the page (its #anchor) when the page exists.
(function () {
  document.querySelectorAll("[data-version-switcher]").forEach(function (nav) {
    var links = nav.querySelectorAll("a[data-same-page]");
    var select = document.createElement("select");
    select.setAttribute("aria-label", nav.getAttribute("aria-label") || "Version");
    links.forEach(function (link) {
      var badge = link.dataset.badge ? " (" + link.dataset.badge + ")" : "";
      var option = new Option(link.textContent + badge, link.href, false, link.hasAttribute("aria-current"));
      option.dataset.samePage = link.dataset.samePage;
      select.add(option);
    });
    select.addEventListener("change", function () {
      var option = select.options[select.selectedIndex];
      location.href = option.value + (option.dataset.samePage === "yes" ? location.hash : "");
    });
    var label = document.createElement("span");
    label.className = "version-label";
    label.textContent = "Version";
    label.setAttribute("aria-hidden", "true");   // the menu is named by its aria-label
    var frame = document.createElement("span");
    frame.className = "version-select";
    frame.append(select);
    nav.replaceChildren(label, frame);
  });
})();
