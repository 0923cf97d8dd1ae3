// Accessible to every reader (issue 41): what the theme's markup gets wrong for a screen
// reader is repaired here, once the page is loaded; tests/check_a11y.py (axe-core, WCAG 2.1
// A and AA) checks the result in both themes.
(function () {
  function repair() {
    // The sidebar's fold toggles are icons: name each after the part it opens.
    document.querySelectorAll("nav.bd-links li.has-children > details > summary").forEach(function (s) {
      var link = s.parentElement.parentElement.querySelector(":scope > a, :scope > p");
      var title = link ? link.textContent.replace(/\s+/g, " ").trim() : "";
      s.setAttribute("aria-label", title ? "Sections of " + title : "Sections");
    });
    // A folded code cell says "Show code cell source" on screen; its name says the same
    // (myst-nb names it "Toggle hidden content", which a voice user cannot guess).
    document.querySelectorAll("details.hide > summary[aria-label]").forEach(function (s) {
      s.removeAttribute("aria-label");
    });
    // The search button shows "Search Ctrl+K": its name is what it shows, not "Search" alone.
    document.querySelectorAll("button.search-button-field[aria-label]").forEach(function (b) {
      b.removeAttribute("aria-label");
      b.setAttribute("aria-keyshortcuts", "Control+K");
    });
    // The colour switch is named "Color mode" and shows one of three icons, each titled
    // ("Light"): the icons are drawing only, and the name says which mode is on.
    document.querySelectorAll("button.theme-switch-button").forEach(function (b) {
      b.querySelectorAll("i").forEach(function (i) { i.setAttribute("aria-hidden", "true"); });
      var name = function () {
        var mode = document.documentElement.dataset.mode || "auto";
        b.setAttribute("aria-label", "Color mode: " + (mode === "auto" ? "system settings" : mode));
      };
      name();
      new MutationObserver(name).observe(document.documentElement, {attributes: true, attributeFilter: ["data-mode"]});
    });
    // The index pages lay their entries out in tables: layout, not data tables with headers.
    document.querySelectorAll("table.indextable").forEach(function (t) {
      t.setAttribute("role", "presentation");
    });
    // The bibliography is a list of entries ("doc-biblioentry" is a retired ARIA role, and a
    // list's children must be list items).
    document.querySelectorAll('[role="list"] > [role="doc-biblioentry"]').forEach(function (e) {
      e.setAttribute("role", "listitem");
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", repair);
  } else {
    repair();
  }
})();
