// Light or dark: the reader's choice, over the system's (prefers-color-scheme).
// Loaded in <head> without defer, so the choice is on <html> (data-theme) before
// anything is drawn: no flash of the other theme. Without this script the
// stylesheet follows the system's setting and the switch stays hidden.
// A choice that matches the system is forgotten: the page follows the system again.
(function () {
  var KEY = "sitegen-theme";
  var root = document.documentElement;
  var system = window.matchMedia("(prefers-color-scheme: dark)");
  var chosen = null;
  try { chosen = localStorage.getItem(KEY); } catch (e) { /* storage blocked: follow the system */ }
  if (chosen === "light" || chosen === "dark") root.dataset.theme = chosen;

  // The announcement the reader closed (its id): hidden by the page's style before it is drawn.
  var CLOSED = "sitegen-announcement-closed";
  try { root.dataset.announcementClosed = localStorage.getItem(CLOSED) || ""; } catch (e) { /* shown */ }

  function dark() { return root.dataset.theme ? root.dataset.theme === "dark" : system.matches; }

  function choose(theme) {
    root.dataset.theme = theme;
    try {
      if ((theme === "dark") === system.matches) localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, theme);
    } catch (e) { /* not remembered: this page still switches */ }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-announcement-close]").forEach(function (button) {
      button.addEventListener("click", function () {
        var id = button.closest("[data-announcement]").dataset.announcement;
        root.dataset.announcementClosed = id;
        try { localStorage.setItem(CLOSED, id); } catch (e) { /* closed on this page only */ }
        // The button goes with the banner: the reader goes on from what follows it, not the page's top.
        var next = document.querySelector(".site-header a[href]");
        if (next) next.focus();
      });
      button.hidden = false;     // without this script it could not close anything
    });
    document.querySelectorAll("[data-theme-toggle]").forEach(function (button) {
      function show() { button.setAttribute("aria-pressed", String(dark())); }
      button.addEventListener("click", function () { choose(dark() ? "light" : "dark"); show(); });
      system.addEventListener("change", show);
      show();
      button.hidden = false;
    });
  });
})();
