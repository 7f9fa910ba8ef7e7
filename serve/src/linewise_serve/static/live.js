// Live transcripts: when the session's file is written, the page's entries are drawn again
// from the server's page, without reloading. The new markup is the HTML renderer's, parsed
// by DOMParser (scripts in it never run) and moved in as nodes; nothing is built from text.
(() => {
  "use strict";
  const doc = document, me = doc.currentScript;
  const url = me && me.dataset.events;
  const status = doc.getElementById("live-status");
  const nav = doc.querySelector(".serve-nav");
  if (nav) doc.body.prepend(nav);
  if (!url || typeof EventSource !== "function") return;

  function say(text, live) {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("is-live", !!live);
  }
  // The renderer's page script moves a subagent's entries into their card and a late tool
  // result into its call's card; entries drawn again are placed the same way.
  function ownSlot(card) {
    const body = card.lastElementChild, slot = body && body.lastElementChild;
    return slot && slot.classList.contains("slot") ? slot : null;
  }
  function place(root) {
    for (const node of Array.from(root.querySelectorAll("[data-parent],[data-call]"))) {
      const parent = node.dataset.parent, call = node.dataset.call;
      if (parent) {
        const card = root.querySelector("#" + CSS.escape(parent));
        const inner = card && card.getElementsByClassName("sub-entries")[0];
        if (inner) inner.append(node);
        delete node.dataset.parent;
      }
      if (call && node.classList.contains("tool-result")) {
        const card = root.querySelector("#" + CSS.escape(call));
        const slot = card && ownSlot(card);
        if (slot && !slot.firstElementChild) slot.append(node);
        delete node.dataset.call;
      }
    }
  }
  let busy = false, again = false, updates = 0;
  async function redraw() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(location.pathname, {credentials: "same-origin", cache: "no-store"});
      if (!answer.ok) throw new Error("HTTP " + answer.status);
      const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
      const main = doc.getElementById("transcript"), next = fresh.getElementById("transcript");
      if (!main || !next) return;
      for (const page of Array.from(next.querySelectorAll("template.page"))) {
        page.replaceWith(page.content);
      }
      place(next);
      const atEnd = window.innerHeight + window.scrollY >= doc.body.scrollHeight - 40;
      const open = new Set(Array.from(main.querySelectorAll("details[open][id]"), (d) => d.id));
      // A copy first: adopting a node takes it out of the live list being walked.
      const nodes = Array.from(next.childNodes);
      main.replaceChildren(...nodes.map((node) => doc.adoptNode(node)));
      for (const id of open) {
        const element = doc.getElementById(id);
        if (element) element.open = true;
      }
      const header = doc.getElementById("summary"), fresher = fresh.getElementById("summary");
      if (header && fresher) header.replaceWith(doc.adoptNode(fresher));
      updates += 1;
      say("live: updated " + updates + (updates === 1 ? " time" : " times") + ", " +
        new Date().toISOString().slice(11, 19) + " UTC", true);
      if (atEnd) window.scrollTo(0, doc.body.scrollHeight);
    } catch (error) {
      say("live update failed: " + error.message, false);
    } finally {
      busy = false;
      // Records written meanwhile: one more redraw, a second later (a busy session is not
      // drawn again for every record).
      if (again) { again = false; setTimeout(redraw, 1000); }
    }
  }
  const source = new EventSource(url);
  source.addEventListener("open", () => say("live: watching for new records", true));
  source.addEventListener("changed", () => redraw());
  source.addEventListener("error", () => say("live: reconnecting", false));
})();
