// Marks, in "On this page", the section being read (aria-current="true") as the page scrolls:
// the last one whose heading has passed a third of the way down the screen, or at the end of
// the page the last one on the screen. Without this script the contents are plain links.
(function () {
  var links = Array.prototype.slice.call(document.querySelectorAll(".toc a[href^='#']"));
  var headings = links.map(function (link) { return document.getElementById(decodeURIComponent(link.hash.slice(1))); });
  if (!links.length || headings.indexOf(null) >= 0) return;
  var pending = false;

  function mark() {
    pending = false;
    var root = document.documentElement;
    var atEnd = window.innerHeight + window.scrollY >= root.scrollHeight - 2;
    var line = atEnd ? window.innerHeight : window.innerHeight / 3;
    var at = -1;
    headings.forEach(function (heading, i) { if (heading.getBoundingClientRect().top < line) at = i; });
    links.forEach(function (link, i) {
      if (i === at) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
  }

  function later() {      // once per frame, however many scroll events it has
    if (!pending) { pending = true; window.requestAnimationFrame(mark); }
  }
  window.addEventListener("scroll", later, {passive: true});
  window.addEventListener("resize", later);
  mark();
})();
