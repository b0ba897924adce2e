// fracas: the little JavaScript of the game master's and players' views (no build step).
// The server draws the pages; this posts actions (the game master's cookie goes with them) and redraws the fight when its
// log moves on (pushed: server-sent events from /api/fights/<id>/stream), keeping the reader's place.
"use strict";

const Fracas = (() => {
  const POLL_MS = 1000;
  let app, fightId, fragmentUrl, seq = 0, busy = false;
  // Requests in flight (window.fracasPending): lets end-to-end tests wait until the page has settled.
  window.fracasPending = 0;
  async function tracked(promise) {
    window.fracasPending += 1;
    try { return await promise; } finally { window.fracasPending -= 1; }
  }

  function currentSeq() {
    const f = document.querySelector("#fight .fight");
    return f ? parseInt(f.dataset.seq, 10) : 0;
  }

  // ----- redrawing without losing the reader's place --------------------------------------------------
  // What the reader has open or scrolled is taken before a redraw and put back after it: the log's scroll
  // position (anchored on the first line in view), open <details> (log lines, card sections, the GM tools),
  // typed values and the focus inside the GM tools.
  function keyOf(el) {
    const keep = el.closest("[data-keep]");
    const line = el.closest("li[data-n]");
    const card = el.closest("[data-id]");
    if (el.dataset && el.dataset.keep) return "k:" + el.dataset.keep;
    if (line) return "n:" + line.dataset.n;
    if (keep) return "k:" + keep.dataset.keep + "/" + (el.name || el.className);
    return "c:" + (card ? card.dataset.id : "") + "/" + el.className;
  }

  function takePlace() {
    const box = document.querySelector("#fight .log .lines");
    const place = { open: new Set(), values: new Map(), focus: null, atBottom: true, anchor: null, offset: 0 };
    document.querySelectorAll("#fight details[open]").forEach((d) => place.open.add(keyOf(d)));
    document.querySelectorAll("#fight [data-keep] input, #fight [data-keep] select").forEach((el) => {
      if (el.name) place.values.set(keyOf(el), el.value);
    });
    const f = document.activeElement;
    if (f && f.name && f.closest("#fight [data-keep]")) place.focus = keyOf(f);
    if (box) {
      place.atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
      const first = [...box.children].find((li) => li.offsetTop + li.offsetHeight > box.scrollTop);
      if (first && first.dataset.n) {
        place.anchor = first.dataset.n;
        place.offset = first.offsetTop - box.scrollTop;
      }
    }
    return place;
  }

  function putBack(place) {
    document.querySelectorAll("#fight details").forEach((d) => { if (place.open.has(keyOf(d))) d.open = true; });
    document.querySelectorAll("#fight [data-keep] input, #fight [data-keep] select").forEach((el) => {
      const k = keyOf(el);
      if (el.name && place.values.has(k) && el.name !== "rename") el.value = place.values.get(k);
      if (place.focus === k) el.focus();
    });
    const box = document.querySelector("#fight .log .lines");
    if (!box) return;
    const again = place.anchor && box.querySelector('li[data-n="' + place.anchor + '"]');
    if (place.atBottom || !again) box.scrollTop = box.scrollHeight;
    else box.scrollTop = again.offsetTop - place.offset;
  }

  async function refresh() {
    const r = await fetch(fragmentUrl, { cache: "no-store" });
    if (!r.ok) return;
    const html = await r.text();
    const place = takePlace();
    const message = document.getElementById("message");
    if (message) message.remove(); // kept across the redraw, with its text and its timer
    document.getElementById("fight").innerHTML = html;
    seq = currentSeq();
    putBack(place);
    dockMessage(message);
  }

  // The message of the last action lives in the header (which stays in view): it never covers a card.
  function dockMessage(message) {
    const m = message || document.getElementById("message");
    const tools = document.querySelector("#fight .bar .tools");
    if (m && tools && m.nextElementSibling !== tools) tools.before(m);
  }

  // ----- updates pushed by the server (server-sent events), polling where there are none --------------
  let onMoved = null; // the open dice dialog's: the fight moved on under it
  function moved(now) {
    if (now === seq || busy) return;
    if (onMoved) onMoved(now);
    tracked(refresh());
  }

  function listen() {
    if (!window.EventSource) { setTimeout(poll, POLL_MS); return; }
    const es = new EventSource("/api/fights/" + fightId + "/stream");
    es.onmessage = (e) => { try { moved(JSON.parse(e.data).seq); } catch (err) { /* a partial message */ } };
    es.addEventListener("gone", () => { es.close(); say("This fight was deleted."); });
  }

  async function poll() {
    try {
      const r = await fetch("/api/fights/" + fightId + "/version", { cache: "no-store" });
      if (r.ok) moved((await r.json()).seq);
    } catch (e) { /* the server may be restarting: try again */ }
    setTimeout(poll, POLL_MS);
  }

  function say(text, kind) {
    const m = document.getElementById("message");
    if (!m) return;
    m.textContent = text;
    m.className = kind || "error";
    m.hidden = !text;
    if (text) setTimeout(() => { if (m.textContent === text) m.hidden = true; }, 8000);
  }

  async function post(path, body) {
    const r = await fetch("/api/fights/" + fightId + "/" + path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    let data = {};
    try { data = await r.json(); } catch (e) { data = { error: "the server answered " + r.status }; }
    data.httpStatus = r.status;
    return data;
  }

  // ----- typed-in dice ----------------------------------------------------------------------------------
  function typedRoll(path, extra, label) {
    const dlg = document.getElementById("dice-dialog");
    const face = document.getElementById("dice-face");
    const err = document.getElementById("dice-error");
    let faces = [];
    const expected = seq;
    onMoved = (now) => {
      if (now === expected || !dlg.open) return;
      dlg.close();
      say("The fight moved on (another window acted): the roll was not made; choose again.");
    };
    dlg.addEventListener("close", () => { onMoved = null; }, { once: true });

    async function attempt() {
      const data = await post(path, Object.assign({ expected, dice: { mode: "typed", faces } }, extra));
      if (data.status === "need") {
        const need = data.need;
        const about = need.context || label;
        document.getElementById("dice-about").textContent = about || "";
        document.getElementById("dice-what").textContent = need.explodes
          ? "The d" + need.sides + " showed its maximum and explodes: roll it again" +
            (need.why ? " for " + need.why : "") + " (the faces are added)."
          : "Roll a d" + need.sides + (need.why ? " for " + need.why : "") + ".";
        document.getElementById("dice-die").textContent = "d" + need.sides;
        showAsked(need.asked || []);
        if (!dlg.open) dlg.showModal();
        face.value = "";
        face.focus();
        return;
      }
      if (data.status === "ok") {
        dlg.close();
        say(data.what, "ok");
        await refresh();
        return;
      }
      if (data.httpStatus === 409) { dlg.close(); say(data.error); await refresh(); return; }
      // refused: drop the faces just typed and ask again
      err.textContent = data.error || "refused";
      faces = faces.slice(0, lastGood);
      showAsked(asked.slice(0, lastGood));
      if (!dlg.open) dlg.showModal();
      face.value = "";
      face.focus();
    }

    let lastGood = 0;
    let asked = [];
    // The dice typed so far, each with the test it is for (the ruleset's ``why``).
    function showAsked(list) {
      asked = list;
      const ol = document.getElementById("dice-so-far");
      ol.replaceChildren(...list.map((d) => {
        const li = document.createElement("li");
        li.textContent = "d" + d.sides + " = " + d.face + (d.why ? " (" + d.why + ")" : "") +
          (d.face === d.sides ? ": its maximum" : "");
        return li;
      }));
      ol.hidden = !list.length;
    }
    showAsked([]);
    document.getElementById("dice-form").onsubmit = (e) => {
      e.preventDefault();
      err.textContent = "";
      const parts = face.value.trim().split(/[\s,]+/).filter((s) => s.length);
      if (!parts.length) { err.textContent = "type the face the die shows"; return; }
      const nums = parts.map((s) => (/^-?\d+$/.test(s) ? parseInt(s, 10) : NaN));
      if (nums.some((n) => Number.isNaN(n))) { err.textContent = "a face is a whole number"; return; }
      lastGood = faces.length;
      faces = faces.concat(nums);
      tracked(attempt());
    };
    document.getElementById("dice-cancel").onclick = () => { dlg.close(); };
    err.textContent = "";
    return attempt();
  }

  // ----- the game master's buttons -----------------------------------------------------------------------
  async function act(button) {
    const what = button.dataset.act;
    const mode = button.dataset.mode || "server";
    let path = what, extra = {}, label = "";
    if (what === "command") {
      const li = button.closest(".choice");
      extra = { command: JSON.parse(li.dataset.command) };
      if (li.dataset.to) extra.to = JSON.parse(li.dataset.to);
      label = li.querySelector(".label").textContent;
    } else if (what === "tactic") {
      label = "The tactic's choice";
    } else if (what === "advance") {
      label = "Automatic step";
    }
    if (mode === "typed") { await typedRoll(path, extra, label); return; }
    busy = true;
    const body = Object.assign({ expected: seq }, extra);
    if (what === "command" || what === "tactic" || what === "advance") body.dice = { mode: "server" };
    try {
      const data = await post(path, body);
      if (data.status === "need") { busy = false; await typedRoll(path, extra, label); return; }
      if (data.status === "ok") say(data.what, "ok");
      else say(data.error || "refused");
    } finally {
      busy = false;
      await refresh();
    }
  }

  // ----- a destination picked on the map (for a choice that moves) -----------------------------------
  let picking = null;
  function startPick(li) {
    document.querySelectorAll(".choice.picking").forEach((x) => x.classList.remove("picking"));
    picking = li;
    li.classList.add("picking");
    const map = document.querySelector("#fight svg.hexmap");
    if (map) map.classList.add("picking");
    say("Click the hex to go to on the map.", "ok");
  }
  function endPick(cell) {
    const li = picking;
    picking = null;
    const map = document.querySelector("#fight svg.hexmap");
    if (map) map.classList.remove("picking");
    if (typeof li === "function") {
      tracked(li([parseInt(cell.dataset.q, 10), parseInt(cell.dataset.r, 10)]));
      return;
    }
    if (!li || !document.body.contains(li)) return;
    const to = [parseInt(cell.dataset.q, 10), parseInt(cell.dataset.r, 10)];
    li.dataset.to = JSON.stringify(to);
    li.querySelector(".dest").textContent = "to (" + to[0] + ", " + to[1] + ")";
    document.querySelectorAll("svg.hexmap .cell.dest").forEach((x) => x.classList.remove("dest"));
    cell.classList.add("dest");
    say("Going to (" + to[0] + ", " + to[1] + "): now roll or do it.", "ok");
  }

  // ----- the game master overrules (docs/web.md, "Overruling") ---------------------------------------
  async function sendOverride(o) {
    busy = true;
    try {
      const data = await post("override", { override: o, expected: seq });
      if (data.status === "ok") say(data.what, "ok");
      else say(data.error || "refused");
    } finally {
      busy = false;
      await refresh();
    }
  }

  function pickThen(what, fn) {
    picking = fn;
    const map = document.querySelector("#fight svg.hexmap");
    if (map) map.classList.add("picking");
    say("Click the hex on the map: " + what + ".", "ok");
  }

  async function overrule(b) {
    const kind = b.dataset.gm;
    const form = b.closest("[data-gm-form]");
    const val = (n) => {
      const el = form && form.querySelector('[name="' + n + '"]');
      return el ? el.value.trim() : "";
    };
    const target = b.dataset.target || (form && form.dataset.target);
    let o = { kind };
    if (target) o.target = target;
    switch (kind) {
      case "damage": case "heal":
        Object.assign(o, { counter: val("counter"), amount: parseInt(val("amount"), 10) }); break;
      case "set":
        Object.assign(o, { counter: val("counter"), value: parseInt(val("amount"), 10) }); break;
      case "condition":
        o.name = val("name");
        if (val("rounds")) o.rounds = parseInt(val("rounds"), 10);
        break;
      case "uncondition": o.name = b.dataset.name; break;
      case "status": o.status = val("status"); break;
      case "end-fight": o.winner = val("winner") || null; break;
      case "up": {
        const ids = [...document.querySelectorAll("#fight .order li[data-id]")].map((li) => li.dataset.id);
        const i = ids.indexOf(b.dataset.id);
        if (i > 0) [ids[i - 1], ids[i]] = [ids[i], ids[i - 1]];
        o = { kind: "order", order: ids };
        break;
      }
      case "move":
        pickThen("where to put it", (to) => sendOverride(Object.assign(o, { to })));
        return;
      case "add": {
        const entry = { template: val("template") };
        if (val("name")) entry.name = val("name");
        pickThen("where the newcomer stands", (to) =>
          sendOverride({ kind, side: val("side"), entry: Object.assign(entry, { at: to }) }));
        return;
      }
      case "rename": {
        const data = await post("rename", { name: val("rename") });
        say(data.status === "ok" ? "renamed" : (data.error || "refused"), data.status === "ok" ? "ok" : "error");
        await refresh();
        return;
      }
      case "delete":
        if (!window.confirm("Delete this fight and its whole log?")) return;
        if ((await post("delete", {})).status === "ok") window.location.assign("/");
        return;
    }
    await sendOverride(o);
  }

  function gm() {
    app = document.getElementById("app");
    fightId = app.dataset.id;
    fragmentUrl = app.dataset.fragment;
    seq = currentSeq();
    document.addEventListener("click", (e) => {
      const pick = e.target.closest("button[data-pick]");
      if (pick) { e.preventDefault(); startPick(pick.closest(".choice")); return; }
      const cell = e.target.closest("svg.hexmap .cell");
      if (cell && picking) { e.preventDefault(); endPick(cell); return; }
      const g = e.target.closest("button[data-gm]");
      if (g && !g.disabled) { e.preventDefault(); tracked(overrule(g)); return; }
      const b = e.target.closest("button[data-act]");
      if (b && !b.disabled) { e.preventDefault(); tracked(act(b)); }
    });
    const lines = document.querySelector("#fight .log .lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
    dockMessage();
    listen();
  }

  function player() {
    app = document.getElementById("app");
    fightId = app.dataset.id;
    fragmentUrl = app.dataset.fragment;
    seq = currentSeq();
    const lines = document.querySelector("#fight .log .lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
    listen();
  }

  return { gm, player };
})();
