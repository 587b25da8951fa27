// Content tabs (pymdownx.tabbed) switch by CSS alone: each set is a group of radio buttons.
// This links them: choosing a label chooses the same label in every set of the page, and
// the choice is remembered (localStorage) for the next page, so a reader who picked "conda"
// once reads conda everywhere. The chosen label stays where it was on the screen.
(function () {
  var KEY = "sitegen-tab";

  function labelOf(input) {
    return input.parentNode.querySelector(':scope > .tabbed-labels > label[for="' + CSS.escape(input.id) + '"]');
  }

  function choose(text) {
    document.querySelectorAll(".tabbed-set > .tabbed-labels > label").forEach(function (label) {
      var input = document.getElementById(label.htmlFor);
      if (input && !input.checked && label.textContent.trim() === text) input.checked = true;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var chosen = null;
    try { chosen = localStorage.getItem(KEY); } catch (e) { /* storage blocked: tabs still switch */ }
    if (chosen) choose(chosen);
    document.addEventListener("change", function (event) {
      var input = event.target;
      if (!(input instanceof HTMLInputElement) || !input.matches(".tabbed-set > input")) return;
      var label = labelOf(input);
      if (!label) return;
      var text = label.textContent.trim(), top = label.getBoundingClientRect().top;
      choose(text);
      window.scrollBy(0, label.getBoundingClientRect().top - top);
      try { localStorage.setItem(KEY, text); } catch (e) { /* not remembered: this page still switches */ }
    });
  });
})();
