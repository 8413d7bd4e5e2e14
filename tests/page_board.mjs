// Replays games with the page's Board (service/static/board.js), for tests/test_page_board_mirror.py.
// Reads {limits, games} on standard input: the limits.js the service makes, and a list of
// {rows, columns, connect, moves}; writes a JSON list
// holding, for each game, the winner (0, 1 or null), the winning cells as sorted [row, column]
// pairs and whether the game is over, or the error that stopped the replay.
import { readFileSync } from "node:fs";

// board.js is an ES module in a folder without package.json: Node reads it as one from a data: URL,
// its import of ./limits.js (made by the service, no file) pointed at the service's made module.
const dataURL = (/** @type {string} */ text) => "data:text/javascript;base64," + Buffer.from(text).toString("base64");
const { limits, games } = JSON.parse(readFileSync(0, "utf8"));
const source = readFileSync(new URL("../service/static/board.js", import.meta.url), "utf8");
const { Board } = await import(dataURL(source.replace('"./limits.js"', JSON.stringify(dataURL(limits)))));

const answers = games.map(({ rows, columns, connect, moves }) => {
  try {
    const board = Board.replay(rows, columns, moves, connect);
    const cells = [...new Set(board.line)]
      .sort((a, b) => a - b)
      .map((index) => [Math.floor(index / columns), index % columns]);
    return { winner: board.winner, cells, over: board.over };
  } catch (error) {
    return { error: String(error) };
  }
});
process.stdout.write(JSON.stringify(answers));
