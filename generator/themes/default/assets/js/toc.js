// Marks, in "On this page", the section being read (aria-current="true") as the page scrolls.
// Without this script the contents are plain links to the headings.
(function () {
  var links = Array.prototype.slice.call(document.querySelectorAll(".toc a[href^='#']"));
  var headings = links.map(function (link) { return document.getElementById(decodeURIComponent(link.hash.slice(1))); });
  if (!links.length || headings.indexOf(null) >= 0 || !("IntersectionObserver" in window)) return;
  var visible = new Set();

  function mark() {
    // The first heading in view, else the last one above the top of the screen.
    var at = headings.findIndex(function (h) { return visible.has(h); });
    if (at < 0) {
      at = -1;
      headings.forEach(function (h, i) { if (h.getBoundingClientRect().top < 80) at = i; });
    }
    links.forEach(function (link, i) {
      if (i === at) link.setAttribute("aria-current", "true");
      else link.removeAttribute("aria-current");
    });
  }

  var observer = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      if (entry.isIntersecting) visible.add(entry.target); else visible.delete(entry.target);
    });
    mark();
  }, {rootMargin: "-64px 0px -40% 0px"});
  headings.forEach(function (h) { observer.observe(h); });
})();
