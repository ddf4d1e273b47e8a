// The folded "Odds" box: each game's odds (view.game.odds, from the engine's odds_for_state) said in a few
// sentences and small tables a family reads at the table, not as the engine's keys and numbers.
// Pure: takes the game view, returns blocks ({ text } or { table: { caption, head, rows } }); app.js draws them.
"use strict";
(function () {
  const { percent, oneIn, ballInPlay } = window.CompanionOdds;
  const MOST_MOVES_LISTED = 5;
  const MOST_GENERIC_LINES = 12;
  const ONE_IN_BELOW = 0.25;  // "1 in 6" helps; "about 1 in 2" for 44% would mislead

  function say(text) { return { text }; }

  function count(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

  function table(caption, head, rows) { return { table: { caption, head, rows } }; }

  function nameOf(game, index) {
    const p = (game.players || [])[index];
    return p && p.name ? p.name : Number.isInteger(index) ? `Player ${index + 1}` : "The player";
  }

  // Every phone shows the box: the roll is the player's on turn, named ("Ben's"), "Your" when the odds name nobody.
  function onTurn(odds, game) {
    const who = Number.isInteger(odds.player) ? nameOf(game, odds.player) : null;
    return { whose: who ? `${who}'s` : "Your", whoseLower: who ? `${who}'s` : "your" };
  }

  // ["red", "blue", "white"] -> "red, blue and white"
  function listWords(items) {
    const words = items.map(String);
    return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words.join("");
  }

  function probability(entry) {
    return entry && typeof entry.probability === "number" ? entry.probability : null;
  }

  // "17% (1 in 6)": the percentage, and for a small chance the same as "1 in N", which reads easier.
  function chanceWords(p, fraction) {
    if (p <= 0 || p >= ONE_IN_BELOW) return percent(p);
    return `${percent(p)} (${oneIn(p, fraction)})`;
  }

  // [banana, coconut, banana] -> "the 2 banana and 1 coconut dice"
  function diceWords(faces) {
    const counts = new Map();
    for (const f of faces) counts.set(f, (counts.get(f) || 0) + 1);
    return `the ${listWords([...counts].map(([face, n]) => `${n} ${face}`))} ${faces.length === 1 ? "die" : "dice"}`;
  }

  // -- Matterhorn ---------------------------------------------------------------------------------------
  function matterhorn(odds, game) {
    const out = [];
    const { whose, whoseLower } = onTurn(odds, game);
    if (Array.isArray(odds.roll)) out.push(say(`This roll: ${odds.roll.join(" ")}.`));
    if (odds.loses_turn === true) {
      out.push(say("No choice of dice reaches a line that is still open: this roll loses the turn."));
    }
    if (Array.isArray(odds.choices) && odds.choices.length) {
      out.push(table(`${whose} choices, safest first`, ["Choice", "Dice left", "Chance the next roll loses the turn"],
        odds.choices.map((c) => [`${c.eliminate.length ? "Eliminate " + listWords(c.eliminate) : "Keep all dice"}: ` +
                                 `line ${c.line}`, String(c.dice_left),
                                 c.bust_next === null ? "no next roll (last token)" : percent(c.bust_next)])));
    }
    const dice = Number.isInteger(odds.dice) ? count(odds.dice, "die", "dice") : "dice";
    if (typeof odds.bust === "number") {
      out.push(say(`Chance that ${whoseLower} next roll (${dice}) loses the turn: ${chanceWords(odds.bust)}.`));
    } else if ("bust" in odds) {
      out.push(say("The supply of tokens is empty: no more rolls this turn."));
    } else if (Number.isInteger(odds.dice) && !Array.isArray(odds.roll)) {
      out.push(say(`${whose} next roll uses ${dice}.`));
    }
    if (Array.isArray(odds.blocked)) {
      out.push(say(odds.blocked.length ? `Lines that can't take a token this turn: ${listWords(odds.blocked)}.`
                                       : "Every line can still take a token."));
    }
    return out;
  }

  // -- Mountain Goats -------------------------------------------------------------------------------------
  function mountainGoats(odds, game) {
    const out = [];
    const tokens = odds.token_chances || null;
    const { whose, whoseLower } = onTurn(odds, game);
    const nextRoll = `${whoseLower} next roll`;
    if (tokens && probability(tokens.any) !== null) {
      out.push(say(`${whose} chance to win a token this turn: ${percent(tokens.any.probability)}.`));
    }
    const rolled = Array.isArray(odds.moves);  // the chances of a roll yet to come, before it is rolled
    const mountains = !rolled && odds.next_roll && odds.next_roll.mountains;
    if (mountains && typeof mountains === "object") {
      // the chance of a group of its number, whatever the goats: one on its summit does not move for it
      const head = ["Mountain", `Chance that ${nextRoll} has dice adding up to its number`];
      if (tokens) head.push("Chance to win its token this turn");
      out.push(table(`${whose} next roll`, head, Object.keys(mountains).map((m) => {
        const row = [`Mountain ${m}`, percent(probability(mountains[m]) ?? 0)];
        if (tokens) row.push(probability(tokens[m]) ? percent(tokens[m].probability) : "no chance");
        return row;
      })));
    }
    const spaces = !rolled && odds.next_roll && odds.next_roll.big_mountain_spaces;
    if (spaces && typeof spaces === "object") {
      out.push(table("The Big Mountain", ["Space", `Chance that ${nextRoll} can send a goat there`],
        Object.keys(spaces).map((s) => [`Space ${s}`, percent(probability(spaces[s]) ?? 0)])));
    }
    if (Array.isArray(odds.big_mountain_points)) {
      const points = odds.big_mountain_points.map((p, i) => `${nameOf(game, i)} ${p}`);
      out.push(say(`Big Mountain points if the game ended now: ${listWords(points)}.`));
    }
    if (Array.isArray(odds.roll)) out.push(say(`This roll: ${odds.roll.join(" ")}.`));
    if (Array.isArray(odds.moves) && odds.moves.length) {
      const listed = odds.moves.slice(0, MOST_MOVES_LISTED);
      out.push(table("The best moves for this roll", ["Move", "What it brings"],
        listed.map((m) => [m.text, goatMoveWords(m)])));
      if (odds.moves.length > listed.length) {
        const more = odds.moves.length - listed.length;
        out.push(say(`And ${count(more, "more move", "more moves")}: all of them are on the buttons.`));
      }
    }
    return out;
  }

  function goatMoveWords(move) {
    const parts = [];
    const sign = move.points > 0 ? "+" : "−";
    if (move.points) parts.push(`${sign}${count(Math.abs(move.points), "point", "points")} now`);
    if (move.progress > 0) parts.push(`climbs ${count(move.progress, "step", "steps")}`);
    if (move.progress < 0) parts.push(`gives up ${count(-move.progress, "step", "steps")}`);
    if (move.big_mountain) parts.push("a goat on the Big Mountain (scored at the end)");
    return parts.join(", ") || "nothing";
  }

  // -- Banana Matcho -----------------------------------------------------------------------------------
  function fruitName(name) { return String(name).replaceAll("-", " "); }

  function bananaMatcho(odds, game) {
    const out = [];
    const fruiter = nameOf(game, odds.fruit_roller);
    const matchoer = nameOf(game, odds.matcho_roller);
    const verdict = { fruit: `${fruiter} can make the banana squeak now.`,
                      matcho: `${matchoer} can make the banana squeak now.`,
                      both: "Both can make the banana squeak now: the first to squeak wins.",
                      neither: "Nobody can make the banana squeak yet." }[odds.verdict];
    if (verdict) out.push(say(verdict));
    const fruit = odds.fruit;
    if (fruit && Array.isArray(fruit.faces)) {
      const now = fruit.current && fruit.current.combination
        ? `${fruitName(fruit.current.combination)}, worth ${count(fruit.current.value, "space", "spaces")}`
        : "no combination yet";
      out.push(say(`${fruiter}'s fruit dice: ${listWords(fruit.faces)}. That is ${now}.`));
      const p = probability(fruit.improve);
      if (p !== null && Array.isArray(fruit.best_keep)) {
        const keep = fruit.best_keep.map((i) => fruit.faces[i]);
        const plan = keep.length === fruit.faces.length ? "Keeping them all" : keep.length
          ? `Keeping ${diceWords(keep)} and rolling the other ${fruit.faces.length - keep.length}`
          : "Rolling them all again";
        out.push(say(p > 0 ? `${plan} gives the best chance to do better: ${chanceWords(p, fruit.improve.chance)}.`
                           : "The fruit dice can't get any better."));
      }
    } else if ("fruit" in odds) {
      out.push(say(`${fruiter}'s fruit dice are not rolled yet.`));
    }
    const matcho = odds.matcho;
    if (matcho && Number.isInteger(matcho.matchos)) {
      if (matcho.matchos >= 3) {
        out.push(say(`${matchoer}'s Matcho dice: all 3 show a Matcho!`));
      } else {
        out.push(say(`${matchoer}'s Matcho dice: ${matcho.matchos} of 3 show a Matcho.`));
        const throws = (matcho.by_throw || []).filter((t) => probability(t) !== null);
        if (throws.length) {
          out.push(table(`Chance that ${matchoer} has all 3 Matchos`, ["Within", "Chance"],
            throws.map((t) => [count(t.throws, "throw", "throws"), chanceWords(t.probability, t.chance)])));
        }
      }
    }
    return out;
  }

  // -- Magic Mountain ------------------------------------------------------------------------------------
  function magicMountain(odds, game) {
    const out = [];
    const ball = ballInPlay(game);
    if (ball) out.push(say(`The ${ball} ball is in play.`));
    if (Array.isArray(odds.next_ball) && odds.next_ball.length) {
      const chances = odds.next_ball.map((b) =>
        `${b.colour} ${b.probability >= 1 ? "for sure" : percent(b.probability)}`);
      const which = ball ? "The ball after this one" : "The next ball out of the bag";
      out.push(say(`${which}: ${listWords(chances)}.`));
    }
    if (Array.isArray(odds.figures) && odds.figures.length) {
      const where = (target) => target === "goal" ? "the goal tile" : `space ${target}`;
      if (ball) {
        out.push(table(`Where the ${ball} ball sends the first figure it hits`, ["Figure", "Now on", "Goes to"],
          odds.figures.map((f) => [f.name || f.figure, `space ${f.space}`, where(f.targets[ball])])));
        out.push(say("A space holds one figure: a figure hit after another took its space goes on to the next free " +
          `${ball} space.`));
      } else {
        const colours = Object.keys(odds.figures[0].targets || {});
        const head = ["Figure", "Now on", ...colours.map((c) => `${c} ball`)];
        out.push(table("Where each ball colour sends a figure it hits first", head, odds.figures.map((f) =>
          [f.name || f.figure, `space ${f.space}`, ...colours.map((c) => where(f.targets[c]))])));
      }
    }
    return out;
  }

  // -- anything else: the odds as short lines, in words -------------------------------------------------------
  // A shape this page does not know (a game added later, a field renamed) still reads as plain lines:
  // "Next roll, mountains, 10: 79%", never as raw keys and long decimals.
  function words(key) {
    return String(key).replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim();
  }

  function valueWords(key, value) {
    if (typeof value === "number") {
      const asChance = /probab|chance|bust/i.test(key) && value >= 0 && value <= 1;
      if (asChance) return percent(value);
      return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(3)));
    }
    if (typeof value === "boolean") return value ? "yes" : "no";
    return words(value);
  }

  function generic(odds) {
    const lines = [];
    const walk = (value, path) => {
      if (lines.length > MOST_GENERIC_LINES) return;
      const label = path.map(words).join(", ") || "Odds";
      const key = path[path.length - 1] || "";
      if (value === null || value === undefined) return;
      if (typeof value !== "object") { lines.push(`${label}: ${valueWords(key, value)}`); return; }
      if (probability(value) !== null) { lines.push(`${label}: ${percent(value.probability)}`); return; }
      if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
        if (value.length) lines.push(`${label}: ${value.map((v) => valueWords(key, v)).join(", ")}`);
        return;
      }
      const entries = Array.isArray(value) ? value.map((v, i) => [String(i + 1), v]) : Object.entries(value);
      for (const [k, v] of entries) walk(v, [...path, k]);
    };
    walk(odds, []);
    const shown = lines.slice(0, MOST_GENERIC_LINES).map((l) => say(l.charAt(0).toUpperCase() + l.slice(1) + "."));
    if (lines.length > MOST_GENERIC_LINES) shown.push(say("And more."));
    return shown;
  }

  const NOTHING_YET = { "matterhorn": "No odds for this step: they show during a turn, when there are dice to roll." };

  const BY_GAME = { "matterhorn": matterhorn, "mountain-goats": mountainGoats, "banana-matcho": bananaMatcho,
                    "magic-mountain": magicMountain };

  // The blocks for the box; none once the game is over, or for a game without odds.
  function summary(game) {
    const odds = game && game.odds;
    if (!odds || typeof odds !== "object" || game.over) return [];
    if (odds.error) return [say("The odds can't be worked out for this moment of the game.")];
    if (!Object.keys(odds).length) return [say(NOTHING_YET[game.name] || "No odds for this step of the game.")];
    const build = BY_GAME[game.name];
    try {
      const blocks = build ? build(odds, game) : [];
      if (blocks.length) return blocks;
    } catch (err) {  // a shape the page does not know: said plainly below, the page goes on
      console.warn("odds box", err);
    }
    try {
      return generic(odds);
    } catch (err) {
      return [say("The odds can't be shown for this moment of the game.")];
    }
  }

  window.CompanionOddsBox = { summary };
})();
