/* reprodocs theme: colour scheme toggle, menu button, header dropdowns, and
 * what sphinx_rtd_theme's theme.js did, without jQuery or inline code (pages
 * work under `script-src 'self'`). Not deferred: a remembered colour scheme
 * applies before the first paint. */
(() => {
  "use strict";
  const root = document.documentElement;
  const KEY = "reprodocs-color-scheme";
  const systemDark = matchMedia("(prefers-color-scheme: dark)");
  const scheme = () => root.dataset.colorScheme || (systemDark.matches ? "dark" : "light");
  const expand = (button, open) => button.setAttribute("aria-expanded", String(open));
  const isExpanded = (button) => button.getAttribute("aria-expanded") === "true";
  const on = (target, type, listener) => target.addEventListener(type, listener);

  // Storage may be disabled: the choice then lasts a page.
  try {
    const remembered = localStorage.getItem(KEY);
    if (remembered === "light" || remembered === "dark") root.dataset.colorScheme = remembered;
  } catch {}
  // Sphinx's highlighter of search terms, only on a page opened from search
  // results (theme.py leaves it out of the others' scripts: 5 KB each).
  let terms = null;
  try {
    terms = localStorage.getItem("sphinx_highlight_terms");
  } catch {}
  const highlighter = new URL("sphinx_highlight.js", document.currentScript.src);
  if (
    (terms || new URLSearchParams(location.search).has("highlight")) &&
    !document.querySelector('script[src*="sphinx_highlight.js"]')
  ) {
    document.head.append(Object.assign(document.createElement("script"), { src: highlighter }));
  }
  // Only now does the stylesheet hide the menus behind the button.
  root.classList.add("reprodocs-js");
  // A collapsed domain index (layout.html), which Sphinx sets in an inline
  // script; doctools.js reads it when the document is ready.
  if ("collapseIndex" in root.dataset && typeof DOCUMENTATION_OPTIONS === "object") {
    DOCUMENTATION_OPTIONS.COLLAPSE_INDEX = true;
  }

  function setUpSchemeToggle(button) {
    const show = () => button.setAttribute("aria-pressed", String(scheme() === "dark"));
    show();
    on(systemDark, "change", show);
    on(button, "click", () => {
      root.dataset.colorScheme = scheme() === "dark" ? "light" : "dark";
      try {
        localStorage.setItem(KEY, root.dataset.colorScheme);
      } catch {}
      show();
    });
  }

  function setUpMenuButton(button) {
    const setOpen = (open) => {
      root.classList.toggle("reprodocs-menu-open", open);
      expand(button, open);
    };
    on(button, "click", () => setOpen(!isExpanded(button)));
    on(document, "keydown", (event) => {
      if (event.key === "Escape" && isExpanded(button)) {
        setOpen(false);
        button.focus();
      }
    });
    // Following a link to a place on this page must show that place.
    for (const id of button.getAttribute("aria-controls").split(" ")) {
      const menu = document.getElementById(id);
      if (menu) on(menu, "click", (event) => event.target.closest("a[href]") && setOpen(false));
    }
  }

  // A disclosure: Escape, or focus going elsewhere, closes it.
  function setUpDropdown(item) {
    const button = item.querySelector("button");
    on(button, "click", () => expand(button, !isExpanded(button)));
    on(item, "keydown", (event) => {
      if (event.key === "Escape" && isExpanded(button)) {
        event.stopPropagation(); // the dropdown closes, not the whole menu
        expand(button, false);
        button.focus();
      }
    });
    on(item, "focusout", (event) => item.contains(event.relatedTarget) || expand(button, false));
  }

  // rtd's expandable menu entries: a button before the link (not inside it,
  // as rtd's: invalid HTML) shows or hides the entries under it through rtd's
  // "current" class. Its translated name is the menu's data-expand-label.
  function setUpMenuEntries(menu) {
    for (const list of menu.querySelectorAll("li > ul")) {
      const item = list.parentElement;
      const link = item.querySelector(":scope > a");
      if (!link) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "toctree-expand";
      button.setAttribute("aria-label", `${menu.dataset.expandLabel}: ${link.textContent}`);
      const show = () => expand(button, item.classList.contains("current"));
      show();
      on(button, "click", () => show(item.classList.toggle("current")));
      item.insertBefore(button, link);
    }
  }

  // The current entry scrolled into view inside the menu's own box: neither
  // the page nor the keyboard's starting point moves (rtd's scrollIntoView()
  // moved the latter on some Chromium versions: the first Tab then skipped
  // the skip link and the header).
  function showCurrentEntry(menu) {
    const box = menu.closest(".wy-side-scroll");
    const entry = menu.querySelector("a.current");
    if (!box || !entry) return;
    const top = entry.getBoundingClientRect().top - box.getBoundingClientRect().top;
    if (top < 0 || top > box.clientHeight - entry.offsetHeight) {
      box.scrollTop += top - box.clientHeight / 3;
    }
  }

  // rtd's responsive tables: a wide table scrolls in its own box.
  function wrapTable(table) {
    const wrapper = document.createElement("div");
    wrapper.className = "wy-table-responsive";
    for (const kind of ["footnote", "citation"]) {
      if (table.classList.contains(kind)) wrapper.classList.add(kind);
    }
    table.before(wrapper);
    wrapper.append(table);
  }

  // A box that scrolls (a wide code block or table) takes the keyboard's
  // focus while it overflows, so that it can be scrolled without a mouse.
  function tabStopsWhileScrollable(boxes) {
    const update = () => {
      for (const box of boxes) {
        if (box.scrollWidth > box.clientWidth || box.scrollHeight > box.clientHeight) {
          box.tabIndex = 0;
        } else {
          box.removeAttribute("tabindex");
        }
      }
    };
    update();
    on(window, "resize", update);
  }

  on(document, "DOMContentLoaded", () => {
    const $ = (selector) => document.querySelector(selector);
    if ($(".reprodocs-color-scheme-button")) setUpSchemeToggle($(".reprodocs-color-scheme-button"));
    if ($(".reprodocs-menu-button")) setUpMenuButton($(".reprodocs-menu-button"));
    document.querySelectorAll(".reprodocs-dropdown").forEach(setUpDropdown);
    const menu = $("#reprodocs-side-menu");
    if (menu) {
      setUpMenuEntries(menu);
      showCurrentEntry(menu);
    }
    document.querySelectorAll(".rst-content table.docutils:not(.field-list)").forEach(wrapTable);
    tabStopsWhileScrollable(
      document.querySelectorAll(".rst-content :is(div[class^='highlight'] pre, .wy-table-responsive)")
    );
  });
})();
