// fracas: the little JavaScript of the game master's and players' views (no build step).
// The server draws the pages; this posts actions (the game master's cookie goes with them) and redraws the fight when its
// log moves on (short polling of /api/fights/<id>/version).
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

  async function refresh() {
    const r = await fetch(fragmentUrl, { cache: "no-store" });
    if (!r.ok) return;
    const html = await r.text();
    const logBox = document.querySelector("#fight .log .lines");
    const atBottom = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
    document.getElementById("fight").innerHTML = html;
    seq = currentSeq();
    const lines = document.querySelector("#fight .log .lines");
    if (lines && atBottom) lines.scrollTop = lines.scrollHeight;
  }

  async function poll() {
    try {
      const r = await fetch("/api/fights/" + fightId + "/version", { cache: "no-store" });
      if (r.ok) {
        const v = await r.json();
        if (v.seq !== seq && !busy) await refresh();
      }
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
    if (!li || !document.body.contains(li)) return;
    const to = [parseInt(cell.dataset.q, 10), parseInt(cell.dataset.r, 10)];
    li.dataset.to = JSON.stringify(to);
    li.querySelector(".dest").textContent = "to (" + to[0] + ", " + to[1] + ")";
    document.querySelectorAll("svg.hexmap .cell.dest").forEach((x) => x.classList.remove("dest"));
    cell.classList.add("dest");
    say("Going to (" + to[0] + ", " + to[1] + "): now roll or do it.", "ok");
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
      const b = e.target.closest("button[data-act]");
      if (b && !b.disabled) { e.preventDefault(); tracked(act(b)); }
    });
    const lines = document.querySelector("#fight .log .lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
    setTimeout(poll, POLL_MS);
  }

  function player() {
    app = document.getElementById("app");
    fightId = app.dataset.id;
    fragmentUrl = app.dataset.fragment;
    seq = currentSeq();
    const lines = document.querySelector("#fight .log .lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
    setTimeout(poll, POLL_MS);
  }

  return { gm, player };
})();
