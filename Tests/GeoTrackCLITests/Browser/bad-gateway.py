#!/usr/bin/env python3
"""A stand-in for a reverse proxy whose upstream is down (none is installed here): answers every
GET on 127.0.0.1:PORT with 502 and prints its path.

Usage: bad-gateway.py PORT
"""
import http.server, sys


class Proxy(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(502)
        self.send_header("Content-Length", "0")
        self.end_headers()
        print(self.path, flush=True)

    def log_message(self, *arguments):
        pass


http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Proxy).serve_forever()
