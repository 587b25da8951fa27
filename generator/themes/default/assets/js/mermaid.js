// Draw the page's Mermaid diagrams (pre.mermaid, their source as text) with the self-hosted
// Mermaid, in the page's light or dark theme, and again when that changes: theme.js's switch
// sets data-theme on <html>, the system's setting is followed when no choice is made.
// A diagram Mermaid cannot read stays as its source text. A module (run once the page is
// parsed): Mermaid's ESM build fetches the code of only the diagram kinds the page draws.
import mermaid from "../vendor/mermaid/mermaid.esm.min.js";

const root = document.documentElement;
const system = window.matchMedia("(prefers-color-scheme: dark)");
const diagrams = Array.from(document.querySelectorAll("pre.mermaid"), (el) => ({ el, source: el.textContent }));

function dark() { return root.dataset.theme ? root.dataset.theme === "dark" : system.matches; }

function draw() {
  mermaid.initialize({
    startOnLoad: false, securityLevel: "strict", suppressErrorRendering: true,
    theme: dark() ? "dark" : "default",
  });
  diagrams.forEach((d) => { d.el.removeAttribute("data-processed"); d.el.textContent = d.source; });
  mermaid.run({ nodes: diagrams.map((d) => d.el) }).catch(() => {});
}

if (diagrams.length) {
  draw();
  new MutationObserver(draw).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
  system.addEventListener("change", draw);
}
