// Draw the page's Mermaid diagrams (pre.mermaid, their source as text) with the self-hosted
// Mermaid, in the page's light or dark theme, and again when that changes: theme.js's switch
// sets data-theme on <html>, the system's setting is followed when no choice is made.
// A diagram Mermaid cannot read stays as its source text.
(function () {
  var root = document.documentElement;
  var system = window.matchMedia("(prefers-color-scheme: dark)");
  var diagrams = [];

  function dark() { return root.dataset.theme ? root.dataset.theme === "dark" : system.matches; }

  function draw() {
    if (!window.mermaid || !diagrams.length) return;
    window.mermaid.initialize({
      startOnLoad: false, securityLevel: "strict", suppressErrorRendering: true,
      theme: dark() ? "dark" : "default",
    });
    diagrams.forEach(function (d) { d.el.removeAttribute("data-processed"); d.el.textContent = d.source; });
    window.mermaid.run({ nodes: diagrams.map(function (d) { return d.el; }) }).catch(function () {});
  }

  document.addEventListener("DOMContentLoaded", function () {
    diagrams = Array.prototype.map.call(document.querySelectorAll("pre.mermaid"), function (el) {
      return { el: el, source: el.textContent };
    });
    draw();
    new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
    system.addEventListener("change", draw);
  });
})();
