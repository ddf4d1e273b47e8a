// The odds at the point of decision: turns each game's exact odds (view.game.odds, from the engine's
// odds_for_state) into short words on the buttons a player is about to tap, and a small tip beside them.
// Pure: takes the game view, returns plain data; app.js draws it.
"use strict";
(function () {
  const SAFE_BELOW = 0.1;        // under 1 in 10: "Safe"
  const RISKY_BELOW = 0.3;       // under about 1 in 3: "Risky"; above: "Very risky"
  const MOST_MOVES_SHOWN = 8;    // a longer ranked list folds behind "Show all"

  function percent(p, short) {
    if (p <= 0) return "0%";
    if (p >= 1) return "100%";
    if (p < 0.01) return short ? "<1%" : "less than 1%";
    if (p > 0.99) return short ? ">99%" : "more than 99%";
    return Math.round(p * 100) + "%";
  }

  // "1 in 4" when the chance is exactly one in a whole number, "about 1 in 28" otherwise; a fraction
  // string like "91/216" from the engine is used when it is given. A sure thing is said by the caller.
  function oneIn(p, fraction) {
    if (p <= 0) return "no";
    if (fraction) {
      const [top, bottom] = fraction.split("/").map(Number);
      if (top === 1) return `1 in ${bottom}`;
    }
    if (p > 0.95) return "more than 9 in 10";
    if (p > 0.5) return `about ${Math.round(p * 10)} in 10`;
    const n = Math.round(1 / p);
    return (Math.abs(1 / p - n) < 1e-9 ? "" : "about ") + `1 in ${n}`;
  }

  function riskLevel(p) {
    if (p <= 0) return { word: "Safe", level: "safe" };
    if (p >= 1) return { word: "Sure to fail", level: "very-risky" };
    if (p < SAFE_BELOW) return { word: "Safe", level: "safe" };
    if (p < RISKY_BELOW) return { word: "Risky", level: "risky" };
    return { word: "Very risky", level: "very-risky" };
  }

  function playerName(game, index) {
    const p = game.players[index];
    return p ? p.name : `Player ${index + 1}`;
  }

  function plain(game) {
    return { moves: (game.legal || []).map((move) => ({ move })), tip: null, foldAfter: null };
  }

  // -- Matterhorn: the chance a roll loses the turn ------------------------------------------------
  function matterhorn(game) {
    const odds = game.odds || {};
    const out = plain(game);
    if (Array.isArray(odds.choices)) {
      const rank = new Map(odds.choices.map((c, i) => [`${c.line}:${[...c.eliminate].sort().join(",")}`, i]));
      for (const entry of out.moves) {
        const a = entry.move.action;
        if (a.kind !== "eliminate") continue;
        const i = rank.get(`${a.line}:${[...a.dice].sort().join(",")}`);
        if (i === undefined) continue;
        const choice = odds.choices[i];
        entry.rank = i;
        if (choice.bust_next === null) {  // the supply's last token: no roll can follow
          entry.note = { text: "Last token: no more rolls, you stop after this", level: "safe" };
          continue;
        }
        const risk = riskLevel(choice.bust_next);
        entry.best = i === 0 && odds.choices.length > 1;
        entry.note = { text: `Next roll: ${risk.word}, ${percent(choice.bust_next)} to lose`, level: risk.level,
                       chance: choice.bust_next };
      }
      out.moves.sort((x, y) => (x.rank ?? Infinity) - (y.rank ?? Infinity));
      if (odds.choices.length > 1 && odds.choices[0].bust_next !== null) {
        out.tip = { title: "Which dice to take out?",
                    lines: [{ text: "★ Best: the next roll is least likely to lose your actions." }] };
      }
      return out;
    }
    if (typeof odds.bust === "number") {
      const risk = riskLevel(odds.bust);
      const words = odds.bust >= 1 ? "certain to lose" : `${oneIn(odds.bust)} chance to lose`;
      for (const entry of out.moves) {
        if (entry.move.action.kind === "roll_again") {
          entry.note = { text: `${risk.word}: ${words} your actions (${percent(odds.bust)})`, level: risk.level,
                         chance: odds.bust, kind: "bust" };
        } else if (entry.move.action.kind === "stop") {
          entry.note = { text: "Safe: you keep your moves", level: "safe" };
        }
      }
      if (game.chance) {
        out.tip = { title: `Rolling ${odds.dice} ${odds.dice === 1 ? "die" : "dice"}`,
                    lines: [{ text: `${risk.word}: ${words} the turn (${percent(odds.bust)})`, level: risk.level,
                              chance: odds.bust, kind: "bust" }] };
      }
    }
    return out;
  }

  // -- Mountain Goats: moves by the points they bring; before a roll, each mountain's chance ----------
  // points are tokens taken now (the score changes at once). Big Mountain points are scored only at the end,
  // by the rank of the goats standing there, so a goat sent there gets its own words ("1st for now"), never
  // "+N points"; only what it cannot lose any more ("sure") counts in the ranking, below real points.
  function ordinal(n) {
    const tens = n % 100, ones = n % 10;
    const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
    return n + suffix;
  }

  function bigMountainWords(big) {
    const goats = (big && big.goats) || [];
    if (!goats.length) return null;
    const ranks = goats.map((g) => ordinal(g.rank)).join(" and ");
    const now = goats.reduce((sum, g) => sum + g.points_now, 0);
    const sure = goats.reduce((sum, g) => sum + g.sure, 0);
    if (now > 0 && sure >= now) return `Big Mountain: ${ranks} to stay (${sure} points at the end)`;
    if (sure > 0) return `Big Mountain: ${ranks} for now (at least ${sure} points at the end)`;
    if (now > 0) return `Big Mountain: ${ranks} for now (scored at the end)`;
    return `Big Mountain: ${ranks}, no points for now`;
  }

  // The plans that differ only in which goat goes to the same Big Mountain spaces: one entry each in the
  // ranked list (the best of them); the others follow all the rest, behind "Show all".
  function sameKind(action) {
    return JSON.stringify([action.steps || [], (action.big || []).map(([space]) => space).sort((a, b) => a - b)]);
  }

  function soundKey(m) {
    return [m.points, (m.big_mountain && m.big_mountain.sure) || 0, m.progress];
  }

  function mountainGoats(game) {
    const odds = game.odds || {};
    const out = plain(game);
    if (Array.isArray(odds.moves) && odds.moves.length) {
      const rank = new Map(odds.moves.map((m, i) => [JSON.stringify(m.action), i]));
      const kinds = new Set();
      for (const entry of out.moves) {
        const i = rank.get(JSON.stringify(entry.move.action));
        if (i === undefined) continue;
        const { points, progress, big_mountain: big } = odds.moves[i];
        entry.rank = i;
        const parts = [];
        if (points) parts.push(`${points > 0 ? "+" : "−"}${Math.abs(points)} ${Math.abs(points) === 1 ? "point" : "points"}`);
        if (progress > 0) parts.push(`climbs ${progress} ${progress === 1 ? "step" : "steps"}`);
        if (progress < 0) parts.push(`gives up ${-progress} ${progress === -1 ? "step" : "steps"}`);
        const words = bigMountainWords(big);
        if (words) parts.push(words);
        const sure = (big && big.sure) || 0;
        entry.note = { text: parts.join(", ") || "no progress",
                       level: points > 0 ? "points" : progress > 0 || sure > 0 || words ? "plain" : "dull", points };
      }
      out.moves.sort((x, y) => (x.rank ?? Infinity) - (y.rank ?? Infinity));
      for (const entry of out.moves) {
        if (entry.rank === undefined || !(entry.move.action.big || []).length) continue;
        const kind = sameKind(entry.move.action);
        entry.variant = kinds.has(kind);
        kinds.add(kind);
      }
      out.moves.sort((x, y) => (x.variant ? 1 : 0) - (y.variant ? 1 : 0));
      const [top, next] = odds.moves;
      const ranked = out.moves.filter((e) => e.rank !== undefined);
      const [a, b] = [soundKey(top), soundKey(next || top)];
      const ahead = a.findIndex((v, k) => v !== b[k]);
      if (ranked.length > 1 && ahead >= 0 && a[ahead] > b[ahead] && ranked[0].rank === 0) ranked[0].best = true;
      out.foldAfter = MOST_MOVES_SHOWN;
      return out;
    }
    if (game.chance && odds.next_roll && odds.token_chances) {
      const name = playerName(game, odds.player);
      const mountains = Object.keys(odds.next_roll.mountains);
      const head = [{ text: "Mountain" }, ...mountains.map((m) => ({ text: m }))];
      const moves = [{ text: "Rolls its number", strong: true }, ...mountains.map((m) => {
        const p = odds.next_roll.mountains[m].probability;
        return { text: percent(p, true), chance: p, kind: "move" };
      })];
      const tokens = [{ text: "Wins a token", strong: true }, ...mountains.map((m) => {
        const p = (odds.token_chances[m] || { probability: 0 }).probability;
        return { text: p > 0 ? percent(p, true) : "–", chance: p, kind: "token" };
      })];
      out.tip = { title: `${name}'s next roll: the chances`, after: true,
                  table: { head, rows: [moves, tokens] },
                  lines: [{ text: `Chance to win a token this turn: ${percent(odds.token_chances.any.probability)}`,
                            chance: odds.token_chances.any.probability, kind: "any-token" }] };
    }
    return out;
  }

  // -- Banana Matcho: the Matcho roller's monkeys and the fruit roller's next throw ----------------------
  function bananaMatcho(game) {
    const odds = game.odds || {};
    const out = plain(game);
    if (!odds.matcho) return out;
    const lines = [];
    const matcho = odds.matcho;
    const matchoName = playerName(game, odds.matcho_roller);
    if (matcho.matchos >= 3) {
      lines.push({ text: `${matchoName} (Matcho dice): all 3 monkeys are showing!`, level: "points" });
    } else {
      const [first, ...later] = matcho.by_throw;
      const last = later.length ? later[later.length - 1] : null;
      const soon = `${matchoName} (Matcho dice): ${matcho.matchos} of 3 monkeys. All 3 on the next throw: ` +
        `${oneIn(first.probability, first.chance)} (${percent(first.probability)})` +
        (last ? `; within ${last.throws} throws: ${percent(last.probability)}` : "");
      lines.push({ text: soon, chance: first.probability, kind: "matcho" });
    }
    const fruitName = playerName(game, odds.fruit_roller);
    if (odds.fruit) {
      const now = odds.fruit.current.combination || "nothing yet";
      const keep = odds.fruit.best_keep.map((i) => odds.fruit.faces[i]);
      const improve = odds.fruit.improve.probability;
      const how = keep.length === 6 ? "Keep them all" :
        keep.length ? `Keep ${diceWords(keep)} and roll the rest` : "Roll them all again";
      lines.push({ text: improve > 0 ? `${fruitName} (fruit dice): ${now}. ${how}: ${percent(improve)} chance to do better.`
                                     : `${fruitName} (fruit dice): ${now}. It can't get better.`,
                   chance: improve, kind: "fruit", level: improve >= 0.5 ? "safe" : "" });
    } else {
      lines.push({ text: `${fruitName} (fruit dice): not rolled yet.` });
    }
    out.tip = { title: "Who is close?", lines, after: true };
    return out;
  }

  // ["banana", "coconut", "banana"] -> "the 2 banana + 1 coconut dice"
  function diceWords(faces) {
    const counts = new Map();
    for (const f of faces) counts.set(f, (counts.get(f) || 0) + 1);
    return "the " + [...counts].map(([face, n]) => `${n} ${face}`).join(" + ") + (faces.length === 1 ? " die" : " dice");
  }

  // -- Magic Mountain: each colour's chance for the next ball, and where it sends each figure ----------
  function magicMountain(game) {
    const odds = game.odds || {};
    const out = plain(game);
    if (!Array.isArray(odds.next_ball) || !Array.isArray(odds.figures)) return out;
    const ball = ballInPlay(game);
    const chances = new Map(odds.next_ball.map((b) => [b.colour, b]));
    const colours = odds.figures.length ? Object.keys(odds.figures[0].targets) : [...chances.keys()];
    const head = [{ text: "Figure" }, ...colours.map((c) => {
      const b = chances.get(c);
      const under = c === ball ? "in play" : b ? percent(b.probability) : "out";  // in hand or on its way down
      return { text: c, colour: c, under, chance: b ? b.probability : 0, kind: "next-ball" };
    })];
    const rows = odds.figures.map((f) => [{ text: `${f.figure} · on ${f.space}`, strong: true },
      ...colours.map((c) => ({ text: f.targets[c] === "goal" ? "Goal!" : String(f.targets[c]), goal: f.targets[c] === "goal" }))]);
    const highlight = ball ? colours.indexOf(ball) + 1 : -1;
    const next = odds.next_ball.map((b) => `${b.colour} ${b.probability >= 1 ? "for sure" : oneIn(b.probability, b.chance)}`)
      .join(", ");
    const lines = [{ text: `${ball ? "After this ball, the next one" : "Next ball"}: ${next}.`, kind: "next-ball" }];
    if (ball) lines.push({ text: sendsTo(odds.figures, ball), kind: "sends" });
    out.tip = { title: ball ? `The ${ball} ball` : "The next ball",
                lines, table: { head, rows, highlight, folded: "Where each colour sends each figure" } };
    return out;
  }

  // The ball on its way down, whose hits are still to come: none once it is down and hit nothing (a witch
  // moves on instead, and the next ball comes from the bag).
  function ballInPlay(game) {
    const missed = (game.legal || []).some((m) => m.action && m.action.kind === "move_on_miss");
    return game.odds && !missed ? game.odds.ball || null : null;
  }

  // "First figure it hits: S1 to S6 → 7; W1 and W2 → 12; W3 and W4 → 22. Each one hit after it → the next free
  // yellow space.": where a first hit sends each figure, those sent to one space together. Only the first hit's
  // space is foretold: a space holds one figure, and an earlier hit may take any group's space (after S1 → 7 and
  // S2 → 12, W1 goes to 22, not 12), so a later hit is said to go on to the next free space of the ball's colour.
  function sendsTo(figures, colour) {
    const groups = new Map();
    for (const f of figures) {
      const target = f.targets[colour] === "goal" ? "Goal!" : String(f.targets[colour]);
      groups.set(target, [...(groups.get(target) || []), f.figure]);
    }
    const said = [...groups].map(([target, names]) => `${runs(names)} → ${target}`).join("; ");
    if (figures.length === 1) return `If it hits: ${said}.`;
    return `First figure it hits: ${said}. Each one hit after it → the next free ${colour} space.`;
  }

  // ["S1", "S2", "S3", "W1", "W2"] -> "S1 to S3, W1 and W2": a run of three or more of one kind said by its ends.
  function runs(names) {
    const parts = [];
    for (let i = 0; i < names.length;) {
      let j = i;
      const [kind, n] = [names[i][0], Number(names[i].slice(1))];
      while (j + 1 < names.length && names[j + 1] === `${kind}${n + j + 1 - i}`) j++;
      parts.push(...(j - i >= 2 ? [`${names[i]} to ${names[j]}`] : names.slice(i, j + 1)));
      i = j + 1;
    }
    return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}` : parts[0];
  }

  const BY_GAME = { "matterhorn": matterhorn, "mountain-goats": mountainGoats, "banana-matcho": bananaMatcho,
                    "magic-mountain": magicMountain };

  function forGame(game) {
    if (!game || game.over || !game.odds || game.odds.error) return plain(game || {});
    const build = BY_GAME[game.name];
    try {
      return build ? build(game) : plain(game);
    } catch (err) {  // odds are a help: a shape the page does not know must not hide the moves
      console.warn("odds", err);
      return plain(game);
    }
  }

  window.CompanionOdds = { forGame, percent, oneIn, riskLevel, ballInPlay };
})();
