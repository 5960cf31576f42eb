"""A tiny Tic Tac Toe server of sdk-tests/realspecs/oai-tictactoe.yaml for the newcomer test
(.ci/newcomer): one board in memory, the document's auth (an `api-key` header to read the
board, a bearer token to mark a square), its 400 answers as text/html. Prints its base URL.
Standard library only."""

import json
import re
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

API_KEY = "newcomer-key"
BEARER = "newcomer-token"
board = [["."] * 3 for _ in range(3)]


def winner():
    lines = [row[:] for row in board]
    lines += [[board[r][c] for r in range(3)] for c in range(3)]
    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
    for line in lines:
        if line[0] != "." and line.count(line[0]) == 3:
            return line[0]
    return "."


class Handler(BaseHTTPRequestHandler):
    def send(self, status, body, content_type="application/json"):
        data = (body if content_type == "text/html" else json.dumps(body)).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def square(self):
        match = re.fullmatch(r"/board/(\d+)/(\d+)", self.path)
        if not match:
            return None
        row, column = int(match[1]), int(match[2])
        if not (1 <= row <= 3 and 1 <= column <= 3):
            return "illegal"
        return row - 1, column - 1

    def do_GET(self):
        if self.path == "/board":
            if self.headers.get("api-key") != API_KEY:
                return self.send(401, {"error": "api-key missing or wrong"})
            return self.send(200, {"winner": winner(), "board": board})
        square = self.square()
        if square is None:
            return self.send(404, {"error": "no such path"})
        if self.headers.get("Authorization") != f"Bearer {BEARER}":
            return self.send(401, {"error": "bearer token missing or wrong"})
        if square == "illegal":
            return self.send(400, "Illegal coordinates.", "text/html")
        return self.send(200, board[square[0]][square[1]])

    def do_PUT(self):
        square = self.square()
        if square is None:
            return self.send(404, {"error": "no such path"})
        if self.headers.get("Authorization") != f"Bearer {BEARER}":
            return self.send(401, {"error": "bearer token missing or wrong"})
        mark = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"null")
        if square == "illegal":
            return self.send(400, "Illegal coordinates.", "text/html")
        if mark not in ("X", "O"):
            return self.send(400, "Invalid Mark (X or O).", "text/html")
        row, column = square
        if board[row][column] != ".":
            return self.send(400, "Square is not empty.", "text/html")
        board[row][column] = mark
        return self.send(200, {"winner": winner(), "board": board})

    def log_message(self, *args):
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
print(f"tictactoe listening on http://127.0.0.1:{server.server_port}", flush=True)
sys.stdout.close()
server.serve_forever()
