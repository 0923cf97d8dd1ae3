// The book as a reader sees it (issue 30): a display equation wider than the column is
// scaled down to fit, to at most 75% of its size; one still too wide then scrolls on its own
// (reader.css), its number beside it.
(function () {
  function fit() {
    document.querySelectorAll("div.math > mjx-container").forEach(function (mjx) {
      mjx.style.fontSize = "";
      var math = mjx.querySelector("mjx-math") || mjx;
      var room = mjx.clientWidth;
      var need = math.getBoundingClientRect().width;
      if (room > 0 && need > room) {
        mjx.style.fontSize = Math.max(0.75, (room - 2) / need) * 100 + "%";
      }
    });
  }
  function start() {
    if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
      MathJax.startup.promise.then(fit);
    } else {
      setTimeout(start, 100);
    }
  }
  window.addEventListener("load", start);
  window.addEventListener("resize", function () { clearTimeout(window.__fitTimer); window.__fitTimer = setTimeout(fit, 200); });
})();
