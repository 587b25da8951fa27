// Typeset the math that the Markdown pipeline passed through (class "arithmatex",
// delimited \( \) inline and \[ \] for display) with the self-hosted KaTeX.
// A formula KaTeX refuses stays readable: its source, as code, with KaTeX's
// reason as a tooltip (never KaTeX's red error text).
// Macros a formula defines (\newcommand, \def) hold for the formulas after it on the page,
// as in Jupyter, where one cell often defines what the others use.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.katex) return;
  var macros = {};
  document.querySelectorAll(".arithmatex").forEach(function (el) {
    var tex = el.textContent.trim();
    var display = tex.startsWith("\\[");
    tex = tex.replace(/^\\[\[(]/, "").replace(/\\[\])]$/, "");
    try {
      // strict: "ignore": what MathJax takes without a word (Unicode text in math) is no console warning.
      window.katex.render(tex, el, {
        displayMode: display, throwOnError: true, strict: "ignore", macros: macros, globalGroup: true,
      });
    } catch (e) {
      var source = document.createElement("code");
      source.className = "math-source";
      source.textContent = tex.trim();
      source.title = String(e.message || e);
      el.replaceChildren(source);
    }
  });
});
