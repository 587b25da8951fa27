// Typeset the math that the Markdown pipeline passed through (class "arithmatex",
// delimited \( \) inline and \[ \] for display) with the self-hosted KaTeX.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.katex) return;
  document.querySelectorAll(".arithmatex").forEach(function (el) {
    var tex = el.textContent.trim();
    var display = tex.startsWith("\\[");
    tex = tex.replace(/^\\[\[(]/, "").replace(/\\[\])]$/, "");
    try {
      window.katex.render(tex, el, { displayMode: display, throwOnError: false });
    } catch (e) {
      el.title = String(e);
    }
  });
});
