(() => {
  "use strict";
  // Runs once at the end of the page. It builds no markup from text: it only
  // moves nodes, clones the page's own <template> pages and sets textContent.
  const doc = document, main = doc.getElementById("transcript");
  doc.documentElement.classList.add("js");
  const summary = doc.getElementById("summary");
  if (summary) doc.body.prepend(summary);

  // A card's own result slot is the last element of its body (nested cards have theirs).
  function ownSlot(card) {
    const body = card.lastElementChild;
    const slot = body && body.lastElementChild;
    return slot && slot.classList.contains("slot") ? slot : null;
  }
  // Entries written after other entries go where they belong: a tool result into
  // its call's card, a subagent's entries into the card of the call that started it.
  // Returns the cards that received something (their counts change).
  function place(nodes) {
    const touched = new Set();
    for (const node of nodes) {
      const parent = node.dataset.parent, call = node.dataset.call;
      if (parent) {
        const card = doc.getElementById(parent);
        const inner = card && card.getElementsByClassName("sub-entries")[0];
        if (inner) {
          inner.append(node);
          touched.add(card);
        }
        delete node.dataset.parent;
      }
      if (call && node.classList.contains("tool-result")) {
        const card = doc.getElementById(call);
        const slot = card && ownSlot(card);
        if (slot && !slot.firstElementChild) {
          slot.append(node);
          touched.add(card);
        }
        delete node.dataset.call;
      }
    }
    return touched;
  }
  function movable(roots) {
    const nodes = [];
    for (const root of roots) {
      if (root.nodeType !== 1) continue;
      if (root.dataset.call || root.dataset.parent) nodes.push(root);
      for (const node of root.querySelectorAll("[data-call],[data-parent]")) nodes.push(node);
    }
    return nodes;
  }
  // Simple class lookups, reads before writes: complex selectors run per card cost
  // chromium time that grows with the page (seconds on a few thousand cards).
  function count(cards) {
    const counts = [];
    for (const card of cards) {
      const slot = ownSlot(card);
      const result = slot && slot.firstElementChild;
      const lines = result && result.getElementsByClassName("lines")[0];
      const meta = card.getElementsByClassName("meta")[0];
      if (lines && meta) counts.push([meta, lines.textContent]);
      const agent = card.getElementsByClassName("subagent")[0];
      const inner = agent && agent.getElementsByClassName("sub-entries")[0];
      if (!inner || !inner.firstElementChild) continue;
      const calls = inner.getElementsByClassName("tool").length;
      const errors = inner.getElementsByClassName("is-error").length;
      const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
      counts.push([agent.getElementsByClassName("sub-count")[0],
        plural(inner.children.length, "entry").replace("entrys", "entries") + " · " +
        plural(calls, "tool call") + " · " + plural(errors, "error")]);
      counts.push([card.getElementsByClassName("sub-badge")[0],
        "subagent: " + plural(calls, "call") + ", " + plural(errors, "error")]);
      card.classList.toggle("sub-failed", errors > 0);
    }
    for (const [element, text] of counts) if (element) element.textContent = text;
  }
  function cardsIn(roots, touched) {
    const cards = new Set();
    for (const root of roots) {
      if (root.nodeType !== 1) continue;
      if (root.classList.contains("tool")) cards.add(root);
      for (const card of root.getElementsByClassName("tool")) cards.add(card);
    }
    for (let card of touched) {
      for (; card; card = card.parentElement && card.parentElement.closest(".tool")) {
        cards.add(card);
      }
    }
    return cards;
  }
  function settle(roots) {
    count(cardsIn(roots, place(movable(roots))));
    if (more) {
      more.hidden = !pages.length;
      more.textContent = "Show more (" + pages.length + " more page" +
        (pages.length === 1 ? "" : "s") + " of entries)";
    }
    entries = null;
  }

  // Very long transcripts come in pages of <template> elements: the browser parses
  // them but lays out and styles none of it. Pages open in order as the reader
  // scrolls near the end; search, "next error" and "expand all" open them all first.
  const pages = Array.from(main.querySelectorAll(":scope > template.page"));
  const more = doc.getElementById("more");
  function openPage() {
    const page = pages.shift();
    if (!page) return false;
    const roots = Array.from(page.content.childNodes);
    page.replaceWith(page.content);
    settle(roots);
    return true;
  }
  function openAll() {
    while (openPage()) { /* every page, in order */ }
  }
  let entries = null;
  settle(Array.from(main.children));
  if (more) {
    more.addEventListener("click", () => openPage());
    if (typeof IntersectionObserver === "function") {
      new IntersectionObserver((seen) => {
        if (seen.some((item) => item.isIntersecting)) openPage();
      }, {rootMargin: "1200px"}).observe(more);
    }
  }

  const box = doc.getElementById("search"), status = doc.getElementById("search-status");
  const marks = typeof Highlight === "function" && CSS.highlights ? new Highlight() : null;
  if (marks) CSS.highlights.set("linewise-match", marks);
  const MAX_MARKS = 5000, MAX_OPENED = 50;
  let texts = null, hits = [], at = -1, opened = [], timer = 0;

  function topLevel() {
    if (entries === null) {
      entries = Array.from(main.children).filter((e) => e.classList.contains("entry"));
      texts = null;
    }
    return entries;
  }
  function reveal(element) {
    for (let d = element.closest("details"); d; d = d.parentElement.closest("details")) {
      d.open = true;
    }
  }
  function go(element) {
    for (const old of main.querySelectorAll(".current")) old.classList.remove("current");
    element.classList.add("current");
    reveal(element);
    element.scrollIntoView({block: "center"});
  }
  // Marks each match in an entry; returns the closed details holding a match in their body.
  function mark(entry, query) {
    const closed = new Set(), walker = doc.createTreeWalker(entry, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const lower = node.data.toLowerCase();
      if (lower.length !== node.data.length) continue;
      for (let i = lower.indexOf(query); i !== -1; i = lower.indexOf(query, i + query.length)) {
        if (marks && marks.size < MAX_MARKS) {
          const range = new Range();
          range.setStart(node, i);
          range.setEnd(node, i + query.length);
          marks.add(range);
        }
        for (let d = node.parentElement.closest("details"); d;
             d = d.parentElement.closest("details")) {
          if (!d.open && !node.parentElement.closest("summary")) closed.add(d);
          if (d === entry) break;
        }
      }
    }
    return closed;
  }
  function search() {
    clearTimeout(timer);
    timer = 0;
    const query = box.value.trim().toLowerCase();
    if (query) openAll();
    const all = topLevel();
    if (texts === null) texts = all.map((entry) => entry.textContent.toLowerCase());
    if (marks) marks.clear();
    for (const d of opened) d.open = false;
    opened = [];
    hits = [];
    at = -1;
    all.forEach((entry, index) => {
      const hit = !query || texts[index].includes(query);
      entry.classList.toggle("miss", !hit);
      entry.classList.remove("current");
      if (query && hit) hits.push(entry);
    });
    for (const entry of query ? hits : []) {
      for (const d of mark(entry, query)) {
        if (opened.length >= MAX_OPENED) break;
        d.open = true;
        opened.push(d);
      }
    }
    status.textContent = query ? hits.length + " of " + all.length + " entries" : "";
  }
  function step(by) {
    if (timer) search();
    if (!hits.length) return;
    at = (at + by + hits.length) % hits.length;
    go(hits[at]);
    status.textContent = (at + 1) + " / " + hits.length + " matching entries";
  }
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, topLevel().length > 2000 ? 200 : 30);
  });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      step(event.shiftKey ? -1 : 1);
    } else if (event.key === "Escape") {
      box.value = "";
      search();
      box.blur();
    }
  });
  doc.addEventListener("keydown", (event) => {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      box.focus();
      box.select();
    }
  });
  doc.getElementById("next").addEventListener("click", () => step(1));
  doc.getElementById("previous").addEventListener("click", () => step(-1));
  doc.getElementById("expand").addEventListener("click", () => {
    openAll();
    for (const d of main.querySelectorAll("details")) d.open = true;
  });
  doc.getElementById("collapse").addEventListener("click", () => {
    for (const d of main.querySelectorAll("details")) d.open = false;
    opened = [];
  });
  // Errors are counted by the writer (the header knows them before any page opens).
  const errorButton = doc.getElementById("next-error");
  const counted = doc.getElementById("error-count");
  const total = Number((counted && counted.dataset.errors) || "0");
  let errorAt = -1;
  errorButton.textContent = total ? "Next error (" + total + ")" : "No errors";
  errorButton.disabled = !total;
  errorButton.addEventListener("click", () => {
    openAll();
    const shown = Array.from(main.querySelectorAll(".is-error"))
      .filter((element) => !element.closest(".miss"));
    if (!shown.length) return;
    errorAt = (errorAt + 1) % shown.length;
    go(shown[errorAt]);
  });
  function followHash() {
    const id = location.hash && decodeURIComponent(location.hash.slice(1));
    if (!id) return;
    if (!doc.getElementById(id)) openAll();
    const target = doc.getElementById(id);
    if (target && main.contains(target)) go(target);
  }
  window.addEventListener("hashchange", followHash);
  followHash();
})();
