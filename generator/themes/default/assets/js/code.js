// A "Copy" button on each highlighted code block: copies the code (without line
// numbers or the prompt) and says so, to the eye and to screen readers. Made
// here, so that a page read without JavaScript shows no button that cannot work.
document.addEventListener("DOMContentLoaded", function () {
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  document.body.append(status);

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {   // plain http: the older way
      var area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      document.body.append(area);
      area.select();
      var done = document.execCommand("copy");
      area.remove();
      (done ? resolve : reject)();
    });
  }

  document.querySelectorAll("div.highlight:not(.source)").forEach(function (block) {
    var code = block.querySelector("td.code pre") || block.querySelector("pre");   // not the numbers
    if (!code) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy-code";
    button.textContent = "Copy";
    button.addEventListener("click", function () {
      copy(code.textContent.replace(/\n$/, "")).then(function () {
        button.textContent = "Copied";
        status.textContent = "Code copied to the clipboard";
      }, function () {
        button.textContent = "Copy failed";
        status.textContent = "The code could not be copied";
      });
      setTimeout(function () { button.textContent = "Copy"; status.textContent = ""; }, 2000);
    });
    // In a frame of its own: a button inside the block would scroll away with wide code.
    var frame = document.createElement("div");
    frame.className = "code-frame";
    block.replaceWith(frame);
    frame.append(block, button);
  });
});
