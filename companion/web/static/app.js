// The page: draws the table's view, sent whole on every change by Server-Sent Events.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"];
  const DEMO = document.body.dataset.demo === "yes";
  let view = null;
  let games = [];
  let chosenGame = null;
  let chanceValues = [];
  let fixIndex = null;
  let showStart = false;
  const MATCHO_FACES = ["matcho", "blank"];
  const MOST_TAPPED = 30;  // the figures one ball hit: the companion takes at most 30 values

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  // A spot of colour. The colour is what a player sent (any short word): set as one CSS value, never as style
  // text, so "red;position:fixed;inset:0" paints nothing instead of laying a layer over the page; a plain word
  // or #hex only, so it cannot load anything either.
  function swatch(cls, colour) {
    const node = el("span", { class: cls });
    if (/^([a-z]+|#[0-9a-f]{3,8})$/i.test(String(colour))) node.style.background = colour;
    return node;
  }

  // A message stays until it is read: the next tap anywhere (or its ✕, or Escape) puts it away, no timer.
  function toast(message) {
    $("toast-text").textContent = message;
    $("toast").hidden = false;
  }

  function hideToast() { $("toast").hidden = true; }

  // Text that only changes when it changed, so a live region is not read out again on every redraw.
  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  // Every redraw replaces the buttons it draws; the one that had the keyboard's (or a screen reader's)
  // focus gets it back by its data-key, when there is still one like it. Else, on the same step, the first
  // control left where it was (a die tapped away); once the step is over, the turn's heading, from where the
  // next Tab reaches the new step's controls (not the page's body, from where it lands past them).
  // Says whether the focus went to the turn's heading: then the focus has read the turn out.
  function keepFocus(draw) {
    const had = document.activeElement;
    const focused = had && had !== document.body ? had : null;
    const key = focused && focused.dataset ? focused.dataset.key : undefined;
    const home = focused ? focused.closest("#question, #reading, #chance, #moves") : null;
    const step = view ? view.step : undefined;
    draw();
    if (!focused || (focused.isConnected && shown(focused))) return false;
    const again = key === undefined ? null : document.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const near = view && view.step === step && home && home.isConnected
      ? [...home.querySelectorAll("button, summary")].find((b) => shown(b) && !b.disabled) : null;
    const next = (again && shown(again) ? again : null) || near;
    if (next) { next.focus({ preventScroll: true }); return false; }
    if ($("live").hidden) return false;
    $("turn").focus({ preventScroll: true });
    return true;
  }

  // Where a step asks its question, takes its dice or offers its moves; and the first thing to tap there.
  const STEP = "#question:not([hidden]), #chance:not([hidden]), #moves:not(:empty)";
  const FIRST_TAP = "#question:not([hidden]) button, #chance:not([hidden]) #chance-faces button, #moves button.move";

  function sentence(words) { return /[.?!]$/.test(words) ? words : words + "."; }

  // The table's words for a refusal ("the game moved on before your tap arrived ...: look again"), said as a sentence.
  function said(words) { return sentence(words.charAt(0).toUpperCase() + words.slice(1)); }

  function shown(node) { return node.getClientRects().length > 0; }

  // What a screen reader hears when the turn or the step changes: whose it is and what to do, read out once
  // per change from the status region. When the focus went to the turn's heading, the focus said it (the
  // heading and the prompt that describes it), and the region is emptied rather than say it a second time.
  function announce(words, saidByFocus) {
    if (words === announce.last) return;
    announce.last = words;
    setText($("said"), saidByFocus ? "" : words);
  }

  // `seen`: the game situation the page showed when the person tapped, kept when the tap is sent again after
  // the join code was typed (the game may have moved on meanwhile: then the tap is refused, not misapplied).
  // A second tap on the same step while the first is on its way (a double tap) is dropped: it would be refused,
  // and its message would say someone else played.
  // Only for a moment: a request lost on a dead connection may never answer, and a tap again must then go out.
  const sending = new Map();
  const DOUBLE_TAP_MS = 1000;
  let tappedOn;  // the step this phone tapped last: the step after it is this phone's to follow (keepNextStepInSight)
  async function send(command, seen = view ? view.step : undefined) {
    if (DEMO) { toast("This is the demo: it plays itself."); return null; }
    tappedOn = seen;
    const mark = Date.now();
    if (seen !== undefined && sending.has(seen) && mark - sending.get(seen) < DOUBLE_TAP_MS) return null;
    if (seen !== undefined) sending.set(seen, mark);
    try {
      const played = await post(command, seen);
      if (!played && tappedOn === seen) tappedOn = undefined;  // refused, lost or not joined: no step of this phone's
      return played;
    } finally {
      if (sending.get(seen) === mark) sending.delete(seen);
    }
  }

  async function post(command, seen) {
    try {
      const response = await fetch("/api/command", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(seen !== undefined ? { ...command, seen } : command),
      });
      // a refusal from the web server itself (a request too large) is not JSON: it is said as it is
      const body = await response.json().catch(() => ({ message: `The companion refused this request: ` +
                                                                    `${response.status} ${response.statusText}`.trim() }));
      if (!response.ok) {
        if (body.join) {  // asked for the code: sent again once it is right; a wrong code has said so already
          const joined = await join();
          if (joined === true) return post(command, seen);
          if (joined === "refused") return null;
        }
        if (body.state) render(body.state);  // refused as stale: show the game as it is now
        toast(said(body.message || body.error || "That did not work."));
        return null;
      }
      hideToast();  // a message about an earlier request is over now
      if (body.state) render(body.state);
      return body;
    } catch (err) {
      toast("The companion cannot be reached. Is it still on?");
      return null;
    }
  }

  // The join code: at the foot of the page on the companion's own screen and on a joined phone; a device enters
  // it once. Until then the header keeps a "Join to play" button (loadShare), for when the prompt was cancelled.
  async function join() {
    $("join").hidden = false;  // asked: this device is not joined (any more), whatever the page thought
    $("share-join").hidden = true;  // the code at this page's foot, if any, is an old one
    const code = window.prompt(document.body.dataset.joinPrompt);  // the server's words (joincode.py)
    if (!code) return false;
    const response = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code.trim() }) });
    if (response.ok) { loadShare(); return true; }
    const body = await response.json().catch(() => ({}));
    toast(said(body.error || body.message || "That is not the join code."));
    return "refused";
  }

  // The header's "Join to play" hides once the phone joined: the focus goes on to the game (or the start form),
  // not to nowhere with the button.
  async function joinByButton() {
    if (await join() !== true) return;
    const next = $("live").hidden ? $("start").querySelector("button:not([hidden])") : $("turn");
    if (next) next.focus();
  }

  // -- live stream -------------------------------------------------------------------------------
  // A stream can go silent without closing (the Wi-Fi dropped and came back): the page asks now and then,
  // when nothing came for a while, whether the table has moved on, and if so opens a new stream.
  let stream = null;
  let heard = Date.now();
  let refusedWith = "";  // the toast of a stream refused over the cap, taken down once the page is live
  const QUIET_MS = 12000;
  async function checkStream() {
    if (Date.now() - heard >= QUIET_MS && view) {
      // a request sent on a connection that died with the Wi-Fi never answers: give it up, look again later
      const giveUp = new AbortController();
      const timer = setTimeout(() => giveUp.abort(), 5000);
      try {
        const now = await (await fetch("/api/health", { cache: "no-store", signal: giveUp.signal })).json();
        if (now.run !== view.run || now.version !== view.version) {
          if (stream) stream.close();
          connect();
        }
        heard = Date.now();
      } catch (err) { /* unreachable: the stream's own reconnection says so */ }
      finally { clearTimeout(timer); }
    }
    setTimeout(checkStream, 3000);
  }

  // A page a newer page of this phone took the place of comes back when its reader does.
  let superseded = false;
  function comeBack() {
    if (!superseded) return;
    superseded = false;
    hideToast();
    connect();
  }
  document.addEventListener("pointerdown", comeBack);
  document.addEventListener("keydown", comeBack);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") comeBack(); });

  let opened = 0;
  function connect() {
    const source = new EventSource("/events");
    stream = source;
    // a stream opened again (a restart, a renewal): the join code may have changed, so the foot asks again
    source.addEventListener("open", () => { if (opened++) loadShare(); });
    heard = Date.now();
    source.addEventListener("state", (e) => {
      heard = Date.now();
      if (refusedWith && $("toast-text").textContent === refusedWith) hideToast();  // live now: no longer true
      refusedWith = "";
      setText($("link"), "live");
      $("link").className = "link on";
      render(JSON.parse(e.data));
    });
    source.addEventListener("renew", () => { source.close(); connect(); });  // the stream's time is up
    source.addEventListener("refused", (e) => {  // too many pages open: said, and asked again in a while
      source.close();
      setText($("link"), "too many pages open");
      $("link").className = "link off";
      refusedWith = JSON.parse(e.data).message;
      toast(refusedWith);
      setTimeout(connect, 5000);
    });
    source.addEventListener("superseded", (e) => {  // a newer page on this phone is live: still until looked at
      source.close();
      superseded = true;
      setText($("link"), "not live: tap the page");
      $("link").className = "link off";
      toast(JSON.parse(e.data).message);
    });
    // the companion started again without its game journal: the page it serves now says why, and what to do
    source.addEventListener("unavailable", () => { source.close(); location.reload(); });
    source.onerror = () => {
      setText($("link"), "reconnecting…");
      $("link").className = "link off";
      // An HTTP error closes the EventSource for good: try again in a while.
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
    };
  }

  // -- drawing the view ------------------------------------------------------------------------------
  function render(next) {
    if (view && next.run === view.run && next.version < view.version) return;  // an older view of this run
    const saidByFocus = keepFocus(() => draw(next));
    if (next.game && !$("live").hidden) announce(sentence(next.game.turn) + " " + $("prompt").textContent, saidByFocus);
  }

  function draw(next) {
    const newStep = !view || view.step !== next.step;
    const mine = newStep && view && tappedOn === view.step;
    if (newStep) tappedOn = undefined;
    view = next;
    window.companionView = next;
    const game = next.game;
    renderHealth(next.health || {});
    const starting = !game || showStart;
    $("start").hidden = !starting;
    $("live").hidden = starting;
    $("back-to-game").hidden = !game;
    setText($("title"), game ? game.title : "The companion");
    if (starting) { renderStart(); return; }
    setText($("turn"), game.turn);
    setText($("turn-bar"), game.turn);
    setText($("prompt"), next.notice ? `${game.prompt}  (${next.notice})` : game.prompt);
    $("board").innerHTML = game.board || "";
    renderQuestion(next.question, game);
    renderReading(game, next.question);
    renderChance(game, next.question);
    const help = window.CompanionOdds.forGame(game);
    renderTip(next.question ? null : help.tip);
    renderMoves(game, help);
    renderScores(game);
    renderOdds(game);
    renderHistory(game);
    renderSummary(game);
    $("undo").disabled = !game.can_undo;
    document.body.dataset.version = next.version;
    fitToScreen();
    placeTurnBar();
    keepNextStepInSight(mine);
  }

  // Whose turn, kept at the top of a phone's screen once its heading has scrolled off above it (after a die or a
  // move tapped below the board); the heading itself is what a screen reader reads.
  function placeTurnBar() {
    const away = !$("live").hidden && $("turn").getBoundingClientRect().top < 0;
    if ($("turn-bar").hidden === away) $("turn-bar").hidden = !away;
  }

  // The step after this phone's own tap starts in sight, its title and all, when it was drawn under the turn's line
  // or above the screen (its dice higher up than the move just tapped); below the screen it is left where the child
  // scrolls on to it, past the board. Any other redraw (another phone's step, the camera's roll) only brings the
  // first button out from under the line, when it is there: a child who scrolled to the scores or the odds stays
  // there while others play.
  function keepNextStepInSight(mine) {
    const bar = $("turn-bar"), next = document.querySelector(mine ? STEP : FIRST_TAP);
    if (!shown(bar) || !next) return;
    const under = bar.getBoundingClientRect().bottom - next.getBoundingClientRect().top;
    if (under > 0 && (mine || next.getBoundingClientRect().bottom > 0)) window.scrollBy(0, -Math.ceil(under));
  }

  // What is wider than the screen at this text size: the board scrolls in its own box, and a line above it says
  // so; a table becomes a card a row, each value after its column's name ("7: 78%"), instead of hiding columns
  // past the screen's edge. Measured again after each redraw, and when the text size, the screen's width or an
  // opened fold changes what is shown.
  function fitToScreen() {
    const board = $("board");
    const hint = !$("live").hidden && board.scrollWidth > board.clientWidth + 1;
    if ($("board-hint").hidden === hint) $("board-hint").hidden = !hint;
    for (const box of document.querySelectorAll(".table-scroll")) {
      if (!shown(box)) continue;
      box.classList.remove("cards");
      if (box.scrollWidth > box.clientWidth + 1) box.classList.add("cards");
    }
  }

  // Redrawn only when what is wrong changed, and a list a person opened stays open through the redraw. The dice
  // zones are read only in Banana Matcho: what is wrong with them is said where it is played or picked to start.
  // The GPIO library missing and a hub on another firmware version are not sensors that stopped: each is said on
  // its own line, not counted among them.
  function renderHealth(health) {
    const box = $("health");
    const zonesRead = zonesMatter();
    const drawn = JSON.stringify([health, zonesRead]);
    if (drawn === renderHealth.drawn) return;
    renderHealth.drawn = drawn;
    const opened = Boolean(box.querySelector("details[open]"));
    box.replaceChildren();
    const sensors = [];
    for (const [what, h] of Object.entries(health)) {
      if (h.state === "ok" || (what === "sensor:dice zones" && !zonesRead)) continue;
      if (what === "camera") box.append(el("p", { class: "warn" }, `Camera: ${h.message || h.state}`));
      else if (what === "recording") box.append(el("p", { class: "warn" }, `Recording: ${h.message}`));
      else if (what === "sensor:gpio") box.append(el("p", { class: "warn" }, `GPIO: ${h.message}`));
      else if (h.state === "outdated") box.append(el("p", { class: "warn" }, `Sensor hub: ${h.message}`));
      else sensors.push(h.message || `${what.replace("sensor:", "")}: ${h.state}`);
    }
    if (sensors.length === 1) box.append(el("p", { class: "warn" }, `Sensor: ${sensors[0]}`));
    if (sensors.length > 1) {
      const list = el("details", { class: "warn" }, el("summary", { "data-key": "sensors" }, `${sensors.length} sensors are not working — tap what happens instead`),
        ...sensors.map((m) => el("div", {}, m)));
      list.open = opened;
      box.append(list);
    }
  }

  function zonesMatter() {
    const game = view && view.game;
    const picked = (!game || showStart) && chosenGame && chosenGame.name === "banana-matcho";
    return Boolean(picked || (game && game.name === "banana-matcho"));
  }

  function renderQuestion(question, game) {
    const box = $("question");
    box.replaceChildren();
    box.hidden = !question;
    if (!question) return;
    box.append(el("p", {}, question.text));
    for (const option of question.options || []) {
      box.append(el("button", { class: "big", "data-key": "option:" + option.option,
        onclick: () => send({ do: "choose", option: option.option }) }, option.label));
    }
  }

  // The roll read last, to fix a die of. Not while a roll is asked about: the dice to tap are that roll's,
  // and a tap on the one before would take back the moves made from it.
  function renderReading(game, question) {
    const asking = question && question.kind === "dice";
    const reading = game.last_reading && !game.last_reading.typed && !asking ? game.last_reading : null;
    $("reading").hidden = !reading || game.over;
    // A die picked on one roll is not picked on the next (another phone played, the camera read a new roll).
    const readingKey = reading ? `${game.id}:${reading.index}:${reading.t}` : null;
    if (readingKey !== renderReading.key) { renderReading.key = readingKey; fixIndex = null; }
    if (!reading) return;
    const dice = $("reading-dice");
    dice.replaceChildren();
    reading.values.forEach((value, i) => {
      const unsure = (reading.unsure || []).includes(i);
      dice.append(el("button", { class: "die" + (unsure ? " unsure" : "") + (fixIndex === i ? " picked" : ""),
        "aria-label": `die ${i + 1}: ${value}`, "aria-pressed": String(fixIndex === i), "data-key": "reading:" + i, onclick: () => { fixIndex = fixIndex === i ? null : i; render(view); } }, value));
    });
    const faces = facesOf(game, reading.values);
    const fix = $("fix");
    fix.replaceChildren();
    fix.hidden = fixIndex === null;
    for (const face of faces) {
      fix.append(el("button", { class: "die face", "data-key": "fix:" + face, onclick: async () => {
        const index = fixIndex; fixIndex = null;
        await send({ do: "correct", index: index, value: face });
      } }, face));
    }
    const photo = $("reading-photo");
    if (reading.dice && reading.dice.length && !reading.typed) {
      photo.src = "/api/reading.jpg?v=" + reading.t;
      photo.onerror = () => { photo.hidden = true; };
      photo.onload = () => { photo.hidden = false; };
    } else photo.hidden = true;
  }

  // The figures the taps so far have put on the goal tile: each tap sends a figure on to the next vacant space of
  // the ball's colour, else onto the goal tile, as the game does (a figure there cannot be hit again).
  // Once the figures on the goal tile end the game (path.ends: how many students "S" or witches "W"), the game
  // takes no further hit: `ended`, and no figure is offered.
  function hitToGoal(path, taps) {
    if (!path) return { onGoal: [], ended: false };
    const at = { ...path.positions };
    const ended = () => Object.entries(path.ends || {}).some(([kind, n]) =>
      Object.keys(at).filter((f) => f[0] === kind && at[f] === path.goal).length >= n);
    for (const figure of taps) {
      if (at[figure] === undefined || at[figure] === path.goal) continue;  // the game says what is wrong
      const taken = new Set(Object.values(at));
      at[figure] = path.spaces.find((s) => s > at[figure] && !taken.has(s)) ?? path.goal;
    }
    const onGoal = Object.keys(at).filter((f) => at[f] === path.goal && path.positions[f] !== path.goal);
    return { onGoal, ended: taps.length > 0 && ended() };
  }

  // A figure said as the history says it ("S1": Student 1); a die's face as it is.
  function spoken(value) {
    const figure = /^([SW])(\d+)$/.exec(String(value));
    return figure ? `${figure[1] === "S" ? "Student" : "Witch"} ${figure[2]}` : String(value);
  }

  // The place of a value in the entry, for a screen reader: "die 2", "Matcho die 1", "hit 3".
  function slotName(kind, i) {
    if (kind === "hits") return `hit ${i + 1}`;
    if (kind === "duel-dice") return i < 6 ? `fruit die ${i + 1}` : `Matcho die ${i - 5}`;
    return `die ${i + 1}`;
  }

  function facesOf(game, values) {
    if (game.chance && game.chance.faces) return game.chance.faces;
    if (values.every((v) => Number.isInteger(v))) return [1, 2, 3, 4, 5, 6];
    return [...new Set(values)];
  }

  function renderChance(game, question) {
    // A squeak asked about is judged on the dice tapped: offered even when the game waits for none (typed already).
    const request = question && question.kind === "dice" ? question : game.chance || (question && question.dice_to_tap);
    const box = $("chance");
    box.hidden = !request || game.over;
    if (!request) { chanceValues = []; return; }
    // A new roll asked about (thrown again) is a new entry, even when it is asked about in the same words.
    const asking = question ? `${question.text}:${question.t ?? ""}:${question.reading ? question.reading.t : ""}` : "";
    const key = `${game.id}:${game.history_count}:${request.kind}:${asking}`;
    if (key !== renderChance.key) {
      ({ values: chanceValues, prefilled: renderChance.prefilled } = tappedBefore(key));
      renderChance.key = key;
    }
    const count = request.count;
    $("chance-title").textContent = question && question.kind === "dice" ? "Tap the dice as they lie" : chanceTitle(request);
    // The dice asked about, to correct; not when more were seen than the roll has (which to leave out is
    // for a person to say, not the first ones to be confirmed with one tap).
    const asked = question && question.reading && question.reading.values.length <= count ? question.reading : null;
    if (asked && chanceValues.length === 0 && !renderChance.prefilled) {
      chanceValues = asked.values.slice();
      renderChance.prefilled = true;
    }
    if (!question) renderChance.prefilled = false;
    const open = count === 0;  // any number, in order (the figures a ball hit)
    const chosen = $("chance-chosen");
    chosen.replaceChildren();
    // Banana Matcho's duel: the first six are the fruit dice, the last three the Matcho dice; a fruit fills
    // the first free fruit die and "matcho" or "blank" the first free Matcho die, so neither lands in the
    // other's place, and a die tapped away leaves its place free.
    const duel = request.kind === "duel-dice";
    const matchoFrom = duel ? 6 : Infinity;
    for (let i = 0; i < (open ? chanceValues.length : count); i++) {
      const v = chanceValues[i];
      if (v !== undefined && v !== null) {
        const unsure = asked && renderChance.prefilled && (asked.unsure || []).includes(i) && v === asked.values[i];
        chosen.append(el("button", { class: "die" + (unsure ? " unsure" : ""),
          title: unsure ? "not read surely: tap to change" : "tap to change",
          "aria-label": `${slotName(request.kind, i)}: ${spoken(v)}, tap to take it away`, "data-key": "chosen:" + i,
          onclick: () => {
          if (duel) chanceValues[i] = null; else chanceValues.splice(i, 1);
          render(view);
        } }, v));
      } else {
        chosen.append(el("span", { class: "die empty" + (i >= matchoFrom ? " matcho" : ""), role: "img",
          "aria-label": `${slotName(request.kind, i)}: not tapped yet` },
          el("span", { "aria-hidden": "true" }, i >= matchoFrom ? "M?" : "?")));
      }
    }
    const faces = $("chance-faces");
    faces.replaceChildren();
    const { onGoal, ended } = request.kind === "hits" ? hitToGoal(request.path, chanceValues)
                                                      : { onGoal: [], ended: false };
    $("chance-legend").hidden = request.kind !== "hits";
    setText($("chance-note"), onGoal.length ? `On the goal tile now: ${onGoal.map(spoken).join(", ")}` +
      (ended ? ". That ends the game: confirm" : "") : "");
    for (const face of request.faces.filter((f) => !ended && !onGoal.includes(f))) {
      const named = spoken(face) === String(face) ? {} : { "aria-label": spoken(face) };
      faces.append(el("button", { class: "die face", ...named, "data-key": "face:" + face, onclick: async () => {
        if (count === 1) { await send({ do: "dice", values: [face] }); chanceValues = []; return; }
        if (duel) {
          const matcho = MATCHO_FACES.includes(face);
          let at = matcho ? matchoFrom : 0;
          while (at < (matcho ? count : matchoFrom) && chanceValues[at] != null) at++;
          if (at < (matcho ? count : matchoFrom)) chanceValues[at] = face;
          else toast(matcho ? "The 3 Matcho dice are all tapped: tap one to change it" : "The 6 fruit dice are all tapped: tap one to change it");
        } else if (open && chanceValues.length >= MOST_TAPPED) {
          toast(`That is ${MOST_TAPPED} figures already: more than one ball can hit. ` +
                "Tap a figure in the row above to take it away.");
        } else if (open || chanceValues.length < count) chanceValues.push(face);
        render(view);
      } }, face));
    }
    const filled = chanceValues.filter((v) => v != null).length;
    const confirm = $("chance-send");
    confirm.hidden = count === 1;
    confirm.disabled = !open && filled !== count;
    confirm.textContent = open && chanceValues.length === 0 ? "Nothing" : "Confirm";
    keepTapped(key);
  }

  // The dice tapped so far, kept in the tab for the roll they were tapped for: a reload, or a tab the phone
  // dropped while it was away, brings them back; any other roll starts with none.
  function keepTapped(key) {
    const kept = { key, values: chanceValues, prefilled: renderChance.prefilled };
    try { sessionStorage.setItem("tapped", JSON.stringify(kept)); } catch (err) { /* not kept: tapped again */ }
  }

  function tappedBefore(key) {
    try {
      const kept = JSON.parse(sessionStorage.getItem("tapped") || "null");
      if (kept && kept.key === key && Array.isArray(kept.values)) return { values: kept.values, prefilled: !!kept.prefilled };
    } catch (err) { /* none kept */ }
    return { values: [], prefilled: false };
  }

  // The moves, each with its odds in words; ranked best first where the game's odds rank them.
  // The banner already shows the engine's prompt; the entry box says only what to tap.
  function chanceTitle(chance) {
    const n = chance.count;
    switch (chance.kind) {
      case "dice": return n === 1 ? "Tap the die (or let the camera read it)" : `Tap the ${n} dice (or let the camera read them)`;
      case "duel-dice": return "Tap the 6 fruit dice, then the 3 Matcho dice";
      case "draw": return "Tap the ball that came out of the bag";
      case "hits": return "Tap the figures it hit, in order";
      default: return chance.prompt || "Enter the outcome";
    }
  }

  function renderMoves(game, help) {
    const box = $("moves");
    box.replaceChildren();
    const entries = help.moves;
    const key = `${game.id}:${game.history_count}`;
    if (renderMoves.key !== key) { renderMoves.key = key; renderMoves.all = false; }
    const folded = help.foldAfter && !renderMoves.all && entries.length > help.foldAfter + 2;
    const shown = folded ? entries.slice(0, help.foldAfter) : entries;
    const { odd, alike, grid, after } = arrangeMoves(shown);
    box.classList.toggle("grid", Boolean(grid));
    for (const entry of odd) box.append(moveButton(entry, null, " odd"));
    if (!grid) alike.forEach((entry) => box.append(moveButton(entry, null, "")));
    else {
      box.append(el("p", { class: "moves-head" }, grid.head));
      for (const group of grid.groups) {
        const buttons = group.items.map(({ at, label }) => moveButton(alike[at], label, ""));
        if (group.label === null) box.append(...buttons);
        else box.append(el("div", { class: "move-group", role: "group", "aria-label": group.label },
          el("span", { class: "group-head", "aria-hidden": "true" }, group.label), ...buttons));
      }
    }
    for (const entry of after) box.append(moveButton(entry, null, " odd"));
    if (folded) {
      box.append(el("button", { class: "small more", "data-key": "more-moves", onclick: showAllMoves },
        `Show all ${entries.length} moves`));
    }
  }

  // "Show all N moves": the focus goes on to the first move it showed, where the keyboard user reads on.
  function showAllMoves() {
    const moves = () => [...$("moves").querySelectorAll("button.move")];
    const before = new Set(moves().map((b) => b.dataset.key));
    renderMoves.all = true;
    render(view);
    const first = moves().find((b) => !before.has(b.dataset.key));
    if (first) first.focus();
  }

  // A move's button: its whole text, or in a grid a short label ("3") with the whole move as its name, since
  // the short label alone says nothing to a screen reader.
  function moveButton(entry, label, extra) {
    const attrs = { class: "move" + extra + (entry.best ? " best" : ""), "data-key": "move:" + entry.move.text,
      onclick: () => send({ do: "play", action: entry.move.action }) };
    if (label !== null) attrs["aria-label"] = entry.move.text;
    if (entry.note && entry.note.chance !== undefined) attrs["data-chance"] = entry.note.chance;
    if (entry.note && entry.note.kind) attrs["data-odds"] = entry.note.kind;
    const button = el("button", attrs);
    if (entry.best) button.append(el("span", { class: "badge best" }, "★ Best"));
    button.append(el("span", { class: "move-text" }, label !== null ? label : entry.move.text));
    if (entry.note) button.append(el("span", { class: "note " + (entry.note.level || "") }, entry.note.text));
    return button;
  }

  // Many moves of one kind and one or two of another: an odd one that declines a move ("Place no obstacle",
  // "Skip the bonus move") first, where a child finds it without scrolling past the many; one that ends the
  // game ("Stop here with the title ...") after them, where it is not tapped for the first button. The many
  // in a grid when they differ only at their end. Ranked moves (with odds notes) keep their order.
  const MOST_ODD_MOVES = 2;
  const LONG_LIST = 5;
  const DECLINES = new Set(["no_obstacle", "end_moves"]);
  function arrangeMoves(entries) {
    const plain = { odd: [], alike: entries, grid: null, after: [] };
    if (entries.length < 3 || entries.some((e) => e.note)) return plain;
    const counts = new Map();
    for (const e of entries) counts.set(e.move.action.kind, (counts.get(e.move.action.kind) || 0) + 1);
    const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    let odd = entries.filter((e) => e.move.action.kind !== main);
    let alike = entries.filter((e) => e.move.action.kind === main);
    if (odd.length > MOST_ODD_MOVES) { odd = []; alike = entries; }
    const grid = compactGrid(alike.map((e) => e.move.text));
    if (!grid && entries.length < LONG_LIST) return plain;
    const first = odd.filter((e) => DECLINES.has(e.move.action.kind));
    return { odd: first, alike, grid, after: odd.filter((e) => !first.includes(e)) };
  }

  // Moves that differ only at the end ("… in opening 1" to "… opening 6") become a heading and a grid of short
  // buttons, so a child finds the number without reading six long sentences; when the ends are two numbers
  // ("… on line 5, circle 1" to "… line 12, circle 10"), a row of short buttons for each first number.
  function compactGrid(texts) {
    if (texts.length < 3) return null;
    const head = commonStart(texts);
    const labels = texts.map((t) => t.slice(head.length));
    if (head.length < 12 || labels.some((l) => !l)) return null;
    const rows = gridRows(head, labels);
    if (rows) return rows;
    if (labels.some((l) => l.length > 14)) return null;
    const items = labels.map((label, at) => ({ at, label }));
    return { head: head.trim().replace(/[,:]$/, "") + ":", groups: [{ label: null, items }] };
  }

  // The words all the texts start with, up to a whole word.
  function commonStart(texts) {
    let head = texts[0];
    for (const t of texts) while (!t.startsWith(head)) head = head.slice(0, -1);
    return head.slice(0, head.lastIndexOf(" ") + 1);
  }

  // "Place a consolation obstacle on line " + "5, circle 1" … : under "Place a consolation obstacle on:", a row
  // "line 5, circle" with the buttons 1, 2, 3.
  function gridRows(head, labels) {
    const parts = labels.map((l) => l.split(", "));
    if (parts.some((p) => p.length !== 2)) return null;
    const inner = commonStart(parts.map(([, second]) => second + " "));
    const short = parts.map(([, second]) => second.slice(inner.length));
    if (short.some((l) => !l || l.length > 4)) return null;
    const rows = new Map();
    parts.forEach(([first], at) => rows.set(first, [...(rows.get(first) || []), { at, label: short[at] }]));
    if (rows.size * 2 > labels.length) return null;
    const words = head.trim().split(" ");
    const last = words.pop();
    const groups = [...rows].map(([first, items]) => ({ label: `${last} ${first}, ${inner.trim()}`.trim(), items }));
    return { head: words.join(" ") + ":", groups };
  }

  // The tip beside the decision: a title, short lines, and for some games a small table.
  // #tip is drawn again only when the tip changed, else an opened table in it would fold again on every redraw.
  // It is no live region: its table would be read out at each change; the turn and prompt are said by #said.
  function renderTip(tip) {
    const box = $("tip");
    box.hidden = !tip;
    const drawn = tip ? JSON.stringify(tip) : null;
    if (!tip) { box.replaceChildren(); renderTip.drawn = null; return; }
    if (tip.after) { if (box.previousElementSibling !== $("moves")) $("moves").after(box); }  // for the table to read
    else if (box.nextElementSibling !== $("chance")) $("chance").before(box);
    if (drawn === renderTip.drawn) return;
    renderTip.drawn = drawn;
    box.replaceChildren();
    box.append(el("h3", {}, tip.title));
    for (const line of tip.lines || []) {
      const attrs = { class: "tip-line " + (line.level || "") };
      if (line.chance !== undefined) attrs["data-chance"] = line.chance;
      if (line.kind) attrs["data-odds"] = line.kind;
      box.append(el("p", attrs, line.text));
    }
    if (tip.table && tip.table.folded) box.append(el("details", { class: "tip-more" }, el("summary", { "data-key": "tip-more" }, tip.table.folded), tipTable(tip.table)));
    else if (tip.table) box.append(tipTable(tip.table));
  }

  function tipTable(table) {
    const cell = (tag, c, column) => {
      const attrs = { class: (c.strong ? "strong " : "") + (c.goal ? "goal " : "") + (column === table.highlight ? "on" : "") };
      if (c.chance !== undefined) attrs["data-chance"] = c.chance;
      if (c.kind) attrs["data-odds"] = c.kind;
      const node = el(tag, attrs);
      if (c.colour) node.append(swatch("ball", c.colour));
      node.append(c.text);
      if (c.under) node.append(el("small", {}, c.under));
      return node;
    };
    const head = (c, i) => { const th = cell("th", c, i); th.setAttribute("scope", "col"); return th; };
    const value = (c, i) => named(cell("td", c, i), i && table.head[i] ? table.head[i].text : "");
    return el("div", { class: "table-scroll" }, el("table", { class: "tip-table" },  // cards when too wide: fitToScreen
      el("thead", {}, el("tr", {}, ...table.head.map(head))),
      el("tbody", {}, ...table.rows.map((row) => el("tr", {}, ...row.map(value))))));
  }

  // A cell that says its column's name when the table is shown as cards (a row a card, see fitToScreen).
  function named(cell, column) {
    if (column) cell.dataset.head = column;
    return cell;
  }

  // Each player with their colour in words too (not everyone tells red from green), the one whose turn it is (at a
  // roll or a draw, who rolls or draws) marked with a ▶ (its row's pale blue alone told few) and for a screen
  // reader, the winner said in words (the 🏆 is decoration: a Pi may lack emoji fonts).
  function renderScores(game) {
    const table = $("scores");
    const body = el("tbody", {});
    game.players.forEach((p, i) => {
      const shown = (game.colours || [])[i] || { name: p.colour, paint: p.colour };
      const who = el("th", { scope: "row" }, swatch("dot", shown.paint), p.name,
        el("small", { class: "colour-name" }, ` (${shown.name})`));
      const team = teamOf(game, i);
      if (team) who.append(el("small", { class: "team-name" }, ` · ${team.name}`));
      const row = el("tr", {}, who, el("td", { class: "num" }, game.scores[i] ?? ""));
      if ((game.turn_players || [game.current_player]).includes(i)) {
        row.classList.add("current");
        row.setAttribute("aria-current", "true");
        who.prepend(el("span", { class: "turn-mark", "aria-hidden": "true" }, "\u25B6\uFE0E "));
      }
      if ((game.winners || []).includes(i)) {
        row.classList.add("winner");
        who.append(" ", el("span", { "aria-hidden": "true" }, "🏆"), el("strong", {}, " (winner)"));
      }
      body.append(row);
    });
    table.replaceChildren(el("thead", { class: "sr-only" }, el("tr", {}, el("th", { scope: "col" }, "Player"),
      el("th", { scope: "col" }, "Score"))), body);
  }

  function teamOf(game, player) {
    return (game.teams || []).find((t) => t.players.includes(player)) || null;
  }

  // The odds in sentences and small tables (odds-box.js); the box is hidden when there is nothing to say.
  function renderOdds(game) {
    const box = $("odds");
    const blocks = window.CompanionOddsBox.summary(game);
    $("odds-box").hidden = blocks.length === 0;
    const drawn = JSON.stringify(blocks);
    if (drawn === renderOdds.drawn) return;
    renderOdds.drawn = drawn;
    box.replaceChildren(...blocks.map((b) => b.table ? oddsTable(b.table) : el("p", { class: "odds-line" }, b.text)));
  }

  function oddsTable(table) {
    const head = el("tr", {}, ...table.head.map((h) => el("th", { scope: "col" }, h)));
    const rows = table.rows.map((row) => el("tr", {}, el("th", { scope: "row" }, row[0]),
      ...row.slice(1).map((c, i) => named(el("td", {}, c), table.head[i + 1]))));
    return el("div", { class: "table-scroll" }, el("table", { class: "odds-table" }, el("caption", {}, table.caption),
      el("thead", {}, head), el("tbody", {}, ...rows)));
  }

  function renderHistory(game) {
    const list = $("history");
    list.replaceChildren();
    list.start = Math.max(1, game.history_count - game.history.length + 1);
    for (const step of game.history) {
      list.append(el("li", {}, stepWho(game, step.who) + step.text));
    }
  }

  // "Ben: " before a player's step, "Ben (Team Witch): " in a team game; "" for what the table saw.
  function stepWho(game, who) {
    const player = who >= 0 ? game.players[who] : null;
    if (!player) return "";
    const team = teamOf(game, who);
    return team && team.name !== player.name ? `${player.name} (${team.name}): ` : `${player.name}: `;
  }

  function renderSummary(game) {
    const box = $("summary");
    box.hidden = !game.over;
    if (!game.over) return;
    const names = (game.winners || []).map((i) => game.players[i].name);
    const team = names.length && game.teams ? teamOf(game, game.winners[0]) : null;
    const teamOnly = team && names.length === 1 && names[0] === team.name;  // a team that played as one "player"
    const all = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
    const won = team && !teamOnly ? `${team.name} won: ${all}!` : `${all} won!`;
    const said = names.length ? [el("span", { "aria-hidden": "true" }, "🎉 "), won] : ["The game is over"];
    box.replaceChildren(el("h2", {}, ...said),
      el("p", {}, `${game.history_count} steps played.`));
  }

  // -- starting a game ------------------------------------------------------------------------------
  // The games the start form offers; asked again a moment later when the companion cannot be reached
  // (a phone opening the page while the Pi restarts).
  async function loadGames() {
    try {
      const response = await fetch("/api/games");
      games = (await response.json()).games;
    } catch (err) {
      setTimeout(loadGames, 2000);
      return;
    }
    if (view) render(view);
  }

  function renderStart() {
    const choice = $("game-choice");
    if (!choice.childElementCount || choice.dataset.count !== String(games.length)) {
      choice.replaceChildren();
      choice.dataset.count = games.length;
      for (const info of games) {
        choice.append(el("button", { class: "big game", "data-game": info.name, "data-key": "game:" + info.name,
          onclick: () => pickGame(info) }, info.title));
      }
    }
    for (const b of choice.children) {
      const picked = Boolean(chosenGame && b.dataset.game === chosenGame.name);
      b.classList.toggle("picked", picked);
      b.setAttribute("aria-pressed", String(picked));
    }
    loadResumable();
  }

  function pickGame(info) {
    chosenGame = info;
    if (view) renderHealth(view.health || {});
    $("setup").hidden = false;
    const players = $("players");
    const count = Math.max(info.min_players, Math.min(2, info.max_players));
    while (players.childElementCount > info.max_players) players.lastChild.remove();
    while (players.childElementCount < count) addPlayer();
    numberPlayers();
    const variants = $("variants");
    variants.replaceChildren();
    for (const v of info.variants) {
      const id = "variant-" + v.name;
      if (v.choices.length === 2 && v.choices.includes(true) && v.choices.includes(false)) {
        const box = el("input", { type: "checkbox", id, "data-variant": v.name });
        box.checked = v.default === true;
        variants.append(el("label", { class: "variant" }, box, " " + v.description));
      } else {
        const select = el("select", { id, "data-variant": v.name });
        for (const c of v.choices) {
          const option = el("option", { value: JSON.stringify(c) }, String(c));
          if (c === v.default) option.selected = true;
          select.append(option);
        }
        variants.append(el("label", { class: "variant" }, v.description + " ", select));
      }
    }
    const teamVariant = info.teams && variants.querySelector(`[data-variant="${info.teams.variant}"]`);
    if (teamVariant) teamVariant.addEventListener("change", renderTeams);
    renderTeams();
    renderStart();
  }

  // -- teams: each player picks a team (side by side at the table, no need to type names alternately) ---------
  // The engine forms the teams by seat (1st, 3rd, 5th on the first team, which plays first), so the first team
  // has the odd player out and the start sends the players in that order: first team, second, first, ...
  function teamsPicked() {
    const teams = chosenGame && chosenGame.teams;
    const input = teams && $("variants").querySelector(`[data-variant="${teams.variant}"]`);
    return input && JSON.parse(input.value) === teams.value ? teams : null;
  }

  function teamSizes(count) { return [Math.ceil(count / 2), Math.floor(count / 2)]; }

  function playerName(li) {
    return li.querySelector(".name").value.trim() || li.querySelector(".name").placeholder;
  }

  function renderTeams() {
    const teams = teamsPicked();
    const rows = [...$("players").children];
    const shown = $("team-summary");
    rows.forEach((li, i) => {
      let pick = li.querySelector(".team");
      if (!pick && teams) {
        pick = el("select", { class: "team" }, ...teams.names.map((n, t) => el("option", { value: String(t) }, n)));
        pick.value = String(i % 2);
        pick.addEventListener("change", renderTeams);
        li.querySelector(".colour").after(pick);
      }
      if (pick) {
        pick.hidden = !teams;
        pick.setAttribute("aria-label", `Player ${i + 1}'s team`);
      }
    });
    shown.hidden = !teams;
    if (!teams) return;
    const members = teamMembers(rows);
    const lines = teams.names.map((n, t) => el("li", { "data-team": String(t) },
      el("strong", {}, `${n}${t === 0 ? " (plays first)" : ""}: `),
      members[t].length ? members[t].map(playerName).join(", ") : "nobody yet"));
    const problem = teamsProblem(teams, members.map((m) => m.length));
    shown.replaceChildren(el("ul", {}, ...lines), ...(problem ? [el("p", { class: "team-problem" }, problem)] : []));
  }

  // What keeps the teams from starting, in words, or "" when they can start.
  function teamsProblem(teams, counts) {
    const total = counts[0] + counts[1];
    const sizes = teamSizes(total);
    if (counts[0] === sizes[0] && counts[1] === sizes[1]) return "";
    if (total < 2) return "Teams need at least two players: add a player.";
    const want = sizes[0] === sizes[1] ? `${sizes[0]} players each` : `${sizes[0]} players on ${teams.names[0]} ` +
      `and ${sizes[1]} on ${teams.names[1]} (${teams.names[0]} takes the odd one)`;
    const big = counts[0] > sizes[0] ? 0 : 1;
    return `With ${total} players the teams are ${want}: move ${counts[big] - sizes[big] === 1 ? "one player" :
      `${counts[big] - sizes[big]} players`} from ${teams.names[big]} to ${teams.names[1 - big]}.`;
  }

  // The player rows on each team: [the first team's, the second team's].
  function teamMembers(rows) {
    return [0, 1].map((t) => rows.filter((li) => li.querySelector(".team").value === String(t)));
  }

  // The rows in the order the engine forms the teams from: first team, second team, first, second, ...
  function seatedForTeams(rows) {
    const members = teamMembers(rows);
    return rows.map((_, i) => members[i % 2][Math.floor(i / 2)]);
  }

  function addPlayer() {
    const players = $("players");
    if (chosenGame && players.childElementCount >= chosenGame.max_players) { toast(`${chosenGame.title} takes at most ${chosenGame.max_players} players`); return; }
    const taken = [...players.querySelectorAll(".colour")].map((s) => s.value);
    const colour = el("select", { class: "colour" });
    for (const c of COLOURS) colour.append(el("option", { value: c }, c));
    colour.value = COLOURS.find((c) => !taken.includes(c)) || COLOURS[0];
    colour.addEventListener("change", numberPlayers);
    const name = el("input", { class: "name", value: "", maxlength: 24 });
    name.addEventListener("input", () => { if (teamsPicked()) renderTeams(); });
    players.append(el("li", {}, name, colour, el("button", { type: "button", class: "small remove",
      onclick: (e) => removePlayer(e.currentTarget.closest("li")) }, "✕")));
    const teams = teamsPicked();
    if (teams) {  // the new player joins the team that is short of one
      renderTeams();
      const [first, second] = teamMembers([...players.children].slice(0, -1));
      players.lastChild.querySelector(".team").value = first.length <= second.length ? "0" : "1";
    }
    numberPlayers();
  }

  // A removed row's place: the focus goes to the row now there (or the add button), not back to the page's top.
  function removePlayer(li) {
    const rows = [...$("players").children];
    const at = rows.indexOf(li);
    li.remove();
    numberPlayers();
    const next = $("players").children[Math.min(at, rows.length - 2)];
    (next ? next.querySelector(".remove") : $("add-player")).focus({ preventScroll: true });
  }

  // The rows' names ("Player 2"), numbered again after one is removed, and each colour offered to one player
  // only: the board tells the players apart by colour.
  function numberPlayers() {
    const rows = [...$("players").children];
    const chosen = rows.map((li) => li.querySelector(".colour").value);
    rows.forEach((li, i) => {
      const who = `Player ${i + 1}`;
      li.querySelector(".name").placeholder = who;
      li.querySelector(".name").setAttribute("aria-label", `${who}'s name`);
      li.querySelector(".colour").setAttribute("aria-label", `${who}'s colour`);
      li.querySelector(".remove").setAttribute("aria-label", `Remove ${who}`);
      li.querySelector(".remove").dataset.key = `remove:${i}`;
      for (const option of li.querySelector(".colour").options) {
        option.disabled = chosen.some((c, j) => j !== i && c === option.value);
      }
    });
    renderTeams();
  }

  async function startGame() {
    if (!chosenGame) { toast("Choose a game first"); return; }
    let rows = [...$("players").children];
    const teams = teamsPicked();
    if (teams) {
      const problem = teamsProblem(teams, teamMembers(rows).map((m) => m.length));
      if (problem) { toast(problem); return; }
      rows = seatedForTeams(rows);
    }
    const players = rows.map((li) => ({ name: playerName(li), colour: li.querySelector(".colour").value }));
    const variants = {};
    for (const input of $("variants").querySelectorAll("[data-variant]")) {
      variants[input.dataset.variant] = input.type === "checkbox" ? input.checked : JSON.parse(input.value);
    }
    const done = await send({ do: "start", game: chosenGame.name, players, variants });
    if (done) showGame();
  }

  // Back to the live game, at the top of the page where its turn is shown.
  function showGame() {
    showStart = false;
    render(view);
    window.scrollTo(0, 0);
  }

  // Every unfinished game with a step, the last played first: five, and the rest behind "Show all".
  async function loadResumable() {
    if (loadResumable.busy) return;
    loadResumable.busy = true;
    try {
      const response = await fetch("/api/history");
      const body = await response.json();
      const all = body.games;
      renderPast(all.filter((g) => g.finished && g.result));
      const rows = all.filter((g) => !g.finished && g.steps > 0 && (!view.game || view.game.id !== g.id))
        .sort((a, b) => (b.played_at || 0) - (a.played_at || 0) || b.id - a.id);
      keepFocus(() => renderResumable(rows, body.now));
    } catch (err) { /* offline: the lists stay as they were until the next view */
    } finally { loadResumable.busy = false; }
  }

  const RESUME_FIRST = 5;

  function renderResumable(rows, now) {
    const list = $("resume-list");
    list.replaceChildren();
    $("resume").hidden = rows.length === 0;
    const shown = renderResumable.all ? rows : rows.slice(0, RESUME_FIRST);
    for (const row of shown) {
      list.append(el("li", {}, el("button", { class: "small", "data-key": "resume:" + row.id, onclick: async () => {
        if (await send({ do: "resume", game_id: row.id })) showGame();
      } }, resumeText(row, now))));
    }
    if (shown.length < rows.length) {
      list.append(el("li", {}, el("button", { class: "small", id: "resume-more", "data-key": "resume-more",
        onclick: () => {
          renderResumable.all = true;
          renderResumable(rows, now);
          const first = list.children[RESUME_FIRST];
          if (first) first.querySelector("button").focus();
        } }, `Show all ${rows.length} games in progress`)));
    }
  }

  // "Matterhorn — Mum, Kid · 12 steps · played yesterday, 20:15": enough to tell two games of the same family apart.
  function resumeText(row, now) {
    const title = (games.find((g) => g.name === row.game) || { title: row.game }).title;
    const names = row.setup.players.map((p) => p.name).join(", ");
    const parts = [`${title} — ${names}`, `${row.steps} ${row.steps === 1 ? "step" : "steps"}`];
    if (row.played_at && now) parts.push("played " + playedWhen(row.played_at, now));
    return parts.join(" · ");
  }

  // When the Pi last played a game, in the phone's own time: `now` is the Pi's clock as it answered, so a Pi whose
  // clock is off (no network to set it) still says how long ago.
  function playedWhen(playedAt, now) {
    const when = new Date(Date.now() - (now - playedAt) * 1000);
    const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const day = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    const days = Math.round((day(new Date()) - day(when)) / 86400000);
    if (days === 0) return `today, ${time}`;
    if (days === 1) return `yesterday, ${time}`;
    const date = when.toLocaleDateString([], { weekday: "short", day: "numeric", month: "short",
      year: days > 300 ? "numeric" : undefined });
    return `${date}, ${time}`;
  }

  function renderPast(rows) {
    const list = $("past-list");
    list.replaceChildren();
    $("past").hidden = rows.length === 0;
    const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
    for (const row of rows.slice(0, 5)) {
      const names = row.setup.players.map((p) => p.name);
      const won = row.result.winners.map((i) => names[i]).join(" and ") || "nobody";
      list.append(el("li", {}, `${titles[row.game] || row.game}: ${won} won (${names.join(", ")})`));
    }
  }

  // -- camera ----------------------------------------------------------------------------------------
  function refreshCamera() {
    const details = $("camera-box").querySelector("details");
    if (details.open) {
      const img = $("camera");
      const probe = new Image();
      probe.onload = () => { img.src = probe.src; img.hidden = false; $("camera-note").hidden = true; };
      probe.onerror = async () => {
        img.hidden = true;
        $("camera-note").hidden = false;
        try { $("camera-note").textContent = (await (await fetch("/camera.jpg")).json()).message; } catch (e) { /* offline */ }
      };
      probe.src = "/camera.jpg?t=" + Date.now();
    }
    setTimeout(refreshCamera, 1000);
  }

  async function setTray() {
    const text = $("tray").value.trim();
    const tray = text === "" || text === "auto" ? "auto" : text.split(/[ ,]+/).map(Number);
    try {
      const response = await fetch("/api/tray", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ tray }) });
      const body = await response.json();
      if (!response.ok && body.join) {
        const joined = await join();
        if (joined === true) return setTray();
        if (joined === "refused") return;
      }
      toast(said(response.ok ? (body.warning || "Tray set.") : (body.message || body.error || "That did not work.")));
    } catch (err) { toast("The companion cannot be reached."); }
  }

  // The tray the camera reads in, shown when the camera view is opened (empty: auto).
  async function showTray() {
    if (!$("camera-box").querySelector("details").open) return;
    try {
      const response = await fetch("/api/tray");
      if (!response.ok) return;
      const { tray } = await response.json();
      $("tray").value = tray === "auto" ? "" : tray.join(", ");
    } catch (err) { /* offline: the field keeps what it had */ }
  }

  // The foot of the page: where other phones open it, and for the table's own screen or a joined phone
  // the join code with its QR code.
  async function loadShare() {
    try {
      const [where, joined] = await Promise.all([fetch("/api/addresses"), fetch("/api/join")]);
      const urls = (await where.json()).urls || [];
      $("share-urls").textContent = urls.length ? "Other phones open: " + urls.join("  or  ") : "";
      if (joined.ok) {
        const body = await joined.json();
        $("join").hidden = !body.required || body.joined;
        $("share-join").hidden = !body.code;
        if (body.code) {
          $("join-code").textContent = body.code;
          $("join-qr").onerror = () => { $("join-qr").hidden = true; };  // no address other phones can open
          $("join-qr").src = "/api/join/qr";
          $("join-qr").hidden = false;
          $("share-join").hidden = false;
        }
      }
    } catch (err) { /* the foot of the page is a help only */ }
  }

  $("add-player").addEventListener("click", addPlayer);
  document.addEventListener("click", hideToast, true);  // before the tap's own handler, which may say something new
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideToast(); });
  $("start-game").addEventListener("click", startGame);
  $("undo").addEventListener("click", () => send({ do: "undo" }));
  $("new-game").addEventListener("click", () => { showStart = true; render(view); window.scrollTo(0, 0); });
  $("back-to-game").addEventListener("click", showGame);
  $("chance-send").addEventListener("click", async () => {
    const values = chanceValues.slice();
    const step = view && view.step;
    chanceValues = [];
    // refused: the dice tapped stay to be fixed, unless the game moved on (they were for the step before)
    if (!(await send({ do: "dice", values })) && view && view.step === step) { chanceValues = values; render(view); }
  });
  $("tray-set").addEventListener("click", setTray);
  $("join").addEventListener("click", joinByButton);
  $("camera-box").querySelector("details").addEventListener("toggle", showTray);
  window.addEventListener("scroll", placeTurnBar, { passive: true });
  new ResizeObserver(fitToScreen).observe(document.body);
  document.addEventListener("toggle", fitToScreen, true);  // a fold opened: its table is measured now
  loadGames();
  loadShare();
  connect();
  checkStream();
  refreshCamera();
})();
