/* reprodocs theme: colour scheme toggle, menu button, header dropdowns, and
 * what sphinx_rtd_theme's theme.js did (expandable menu entries, responsive
 * tables, the current menu entry in view), without jQuery. Loaded in <head>,
 * not deferred: a remembered scheme applies before the first paint. No inline
 * code anywhere: pages work under `script-src 'self'; style-src 'self'`. */
(() => {
  "use strict";
  const root = document.documentElement;
  const SCHEME_KEY = "reprodocs-color-scheme";
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

  // Storage may be disabled; the choice then lasts a page.
  const storedScheme = () => {
    try {
      return localStorage.getItem(SCHEME_KEY);
    } catch {
      return null;
    }
  };
  const currentScheme = () =>
    root.dataset.colorScheme || (systemDark.matches ? "dark" : "light");

  // Without a choice the stylesheet follows prefers-color-scheme.
  const remembered = storedScheme();
  if (remembered === "light" || remembered === "dark") {
    root.dataset.colorScheme = remembered;
  }
  // Only then does the stylesheet hide the menus behind the button.
  root.classList.add("reprodocs-js");

  // A domain index's collapsed groups, which Sphinx's template sets with an
  // inline script; doctools.js (loaded before this file) reads the option
  // when the document is ready.
  if ("collapseIndex" in root.dataset && typeof DOCUMENTATION_OPTIONS === "object") {
    DOCUMENTATION_OPTIONS.COLLAPSE_INDEX = true;
  }

  const expand = (button, open) => button.setAttribute("aria-expanded", String(open));
  const isExpanded = (button) => button.getAttribute("aria-expanded") === "true";

  function setUpSchemeToggle(button) {
    const show = () => button.setAttribute("aria-pressed", String(currentScheme() === "dark"));
    show();
    systemDark.addEventListener("change", show);
    button.addEventListener("click", () => {
      const scheme = currentScheme() === "dark" ? "light" : "dark";
      root.dataset.colorScheme = scheme;
      try {
        localStorage.setItem(SCHEME_KEY, scheme);
      } catch {} // not remembered, still applied
      show();
    });
  }

  function setUpMenuButton(button) {
    const setOpen = (open) => {
      root.classList.toggle("reprodocs-menu-open", open);
      expand(button, open);
    };
    button.addEventListener("click", () => setOpen(!isExpanded(button)));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && isExpanded(button)) {
        setOpen(false);
        button.focus();
      }
    });
    // Following a link to a place on this page must show that place.
    for (const id of button.getAttribute("aria-controls").split(" ")) {
      document.getElementById(id)?.addEventListener("click", (event) => {
        if (event.target.closest("a[href]")) setOpen(false);
      });
    }
  }

  // Disclosure: the button toggles the list; Escape closes it (focus back
  // on the button), and so does focus or a click going elsewhere.
  function setUpDropdown(item) {
    const button = item.querySelector("button");
    button.addEventListener("click", () => expand(button, !isExpanded(button)));
    item.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && isExpanded(button)) {
        event.stopPropagation(); // closes the dropdown, not the whole menu
        expand(button, false);
        button.focus();
      }
    });
    item.addEventListener("focusout", (event) => {
      if (!item.contains(event.relatedTarget)) expand(button, false);
    });
  }

  // rtd's expandable entries: an entry with a nested list gets a button,
  // before its link (a button inside a link is not valid HTML), that shows
  // or hides the list through rtd's "current" class. Its name comes from the
  // page (data-expand-label), translated.
  function setUpMenuEntries(menu) {
    const label = menu.dataset.expandLabel;
    for (const list of menu.querySelectorAll("li > ul")) {
      const item = list.parentElement;
      const link = item.querySelector(":scope > a");
      if (!link) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "toctree-expand";
      button.setAttribute("aria-label", `${label}: ${link.textContent}`);
      expand(button, item.classList.contains("current"));
      button.addEventListener("click", () => {
        item.classList.toggle("current");
        expand(button, item.classList.contains("current"));
      });
      item.insertBefore(button, link);
    }
  }

  // The current entry scrolled into view inside the menu only: scrolling the
  // menu's own box moves neither the page nor the keyboard's starting point
  // (rtd's scrollIntoView() did, on some Chromium versions: the first Tab then
  // skipped the skip link and the header).
  function showCurrentEntry(menu) {
    const scroller = menu.closest(".wy-side-scroll");
    const entry = menu.querySelector("a.current");
    if (!scroller || !entry || scroller.scrollHeight <= scroller.clientHeight) return;
    const top = entry.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    if (top < 0 || top > scroller.clientHeight - entry.offsetHeight) {
      scroller.scrollTop += top - scroller.clientHeight / 3;
    }
  }

  // rtd's responsive tables: wide tables scroll inside their own box.
  function wrapTables(content) {
    for (const table of content.querySelectorAll("table.docutils:not(.field-list)")) {
      const wrapper = document.createElement("div");
      wrapper.className = "wy-table-responsive";
      for (const kind of ["footnote", "citation"]) {
        if (table.classList.contains(kind)) wrapper.classList.add(kind);
      }
      table.before(wrapper);
      wrapper.append(table);
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const schemeButton = document.querySelector(".reprodocs-color-scheme-button");
    if (schemeButton) setUpSchemeToggle(schemeButton);
    const menuButton = document.querySelector(".reprodocs-menu-button");
    if (menuButton) setUpMenuButton(menuButton);
    document.querySelectorAll(".reprodocs-dropdown").forEach(setUpDropdown);
    const menu = document.getElementById("reprodocs-side-menu");
    if (menu) {
      setUpMenuEntries(menu);
      showCurrentEntry(menu);
    }
    const content = document.querySelector(".rst-content");
    if (content) wrapTables(content);
  });
})();
