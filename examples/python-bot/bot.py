#!/usr/bin/env python3
"""A bot that speaks to its Eleven integrations sidecar with Python's standard library alone.

It reads the bot's identity, lists the ops its grant allows, runs a read and pages
through it, then runs a write through the member's confirmation, all over the
sidecar's Unix socket. The contract it follows is the sidecar's OpenAPI description
(@eleven-integrations/sidecar-protocol/openapi.json).

    SIDECAR_HOME=~/.eleven-sidecar python3 bot.py --grant grant.txt \
        --read issues.list --read-arg owner=octocat --read-arg repo=hello-world \
        --write issues.create --write-arg owner=octocat --write-arg repo=hello-world --write-arg title="Found a bug"
"""

import argparse
import http.client
import json
import os
import socket
import sys
import unicodedata

# What the member's client needs to sign the tap: printed on one line after this word.
CHIP_PREFIX = "chip: "


class SidecarRefused(Exception):
    """The sidecar refused the call before its route (401, 403, 400, 413, 415...)."""

    def __init__(self, status, code):
        super().__init__(f"the sidecar refused the call ({status} {code})")
        self.status = status
        self.code = code


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket. The Host header stays `localhost`, which the sidecar's loopback guard expects."""

    def __init__(self, path, timeout):
        super().__init__("localhost", timeout=timeout)
        self.socket_path = path

    def connect(self):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self.socket_path)
        self.sock = sock


class Sidecar:
    """One call per connection: the sidecar's routes, each answering JSON."""

    MAX_ANSWER_BYTES = 4 * 1024 * 1024

    def __init__(self, home, timeout=60):
        self.socket_path = os.path.join(home, "sidecar.sock")
        with open(os.path.join(home, "caller-token"), encoding="utf-8") as file:
            self.caller_token = file.read().strip()
        self.timeout = timeout

    def call(self, method, path, body=None):
        connection = UnixConnection(self.socket_path, self.timeout)
        headers = {"Authorization": f"Bearer {self.caller_token}", "Accept": "application/json"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            connection.request(method, path, body=payload, headers=headers)
            response = connection.getresponse()
            text = response.read(self.MAX_ANSWER_BYTES + 1)
        finally:
            connection.close()
        if len(text) > self.MAX_ANSWER_BYTES:
            raise SidecarRefused(response.status, "answer_too_large")
        answer = json.loads(text)
        if response.status != 200:
            # Every refusal before the route is { error: { code, message } }; an answer of a route is always 200.
            raise SidecarRefused(response.status, answer.get("error", {}).get("code", "unknown"))
        return answer

    def identity(self):
        return self.call("GET", "/v1/identity")

    def ops(self, grant):
        return self.call("POST", "/v1/ops", {"grant": grant})

    def run(self, grant, op, args, confirmation=None, page=None, approval=None):
        body = {"grant": grant, "op": op, "args": args}
        if confirmation is not None:
            body["confirmation"] = confirmation
        if page is not None:
            body["page"] = page
        if approval is not None:
            body["approval"] = approval
        return self.call("POST", "/v1/run", body)

    def subscribe(self, subscription, grant=None):
        body = {"subscription": subscription}
        if grant is not None:
            body["grant"] = grant
        return self.call("POST", "/v1/subscriptions", body)

    def events(self, after=None, wait_ms=0):
        """The long poll: the sidecar holds the call up to wait_ms, so this call's own timeout is longer."""
        body = {"wait_ms": wait_ms}
        if after is not None:
            body["after"] = after
        saved = self.timeout
        self.timeout = max(saved, wait_ms / 1000 + 10)
        try:
            return self.call("POST", "/v1/events", body)
        finally:
            self.timeout = saved

    def policy(self, grant, approvals=()):
        body = {"grant": grant}
        if approvals:
            body["approvals"] = list(approvals)
        return self.call("POST", "/v1/policy", body)


def safe(text):
    """Text from a provider or a manifest, with control and format characters shown as \\uXXXX, so it cannot drive the terminal."""
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") else c for c in str(text))


def compact(value):
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def named_args(pairs):
    args = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"an arg is NAME=VALUE, not {pair!r}")
        args[name] = value
    return args


def refused(answer):
    error = answer["error"]
    print(f"refused: {error['code']}: {safe(error['message'])}")
    print(f"next: {safe(error['next_action'])}")
    return 1


def read_pages(sidecar, grant, op, args, pages):
    page = None
    for number in range(1, pages + 1):
        answer = sidecar.run(grant, op, args, page=page)
        if answer["status"] != "ok":
            return refused(answer)
        print(f"read {op} page {number}: {compact(answer['data'])}")
        page = answer.get("next_page")
        if page is None:
            print(f"read {op}: no more pages")
            return 0
    print(f"read {op}: more pages after {pages}")
    return 0


def write(sidecar, grant, op, args, confirmations, approval=None):
    answer = sidecar.run(grant, op, args, approval=approval)
    if approval is not None and answer["status"] == "error" and answer["error"]["code"] in ("approval_invalid", "approval_exhausted"):
        # Outside the standing approval's room, or past its budget: the member taps, as without one.
        print(f"approval not used: {answer['error']['code']}: {safe(answer['error']['message'])}")
        answer = sidecar.run(grant, op, args)
    if answer["status"] == "confirmation_required":
        # The chip: the member reads `confirm` (and `preview`, what the write will touch) and taps.
        line = answer["confirm"] if "preview" not in answer else f"{answer['confirm']}\n{answer['preview']}"
        chip = {"op": op, "args": args, "line": line, "details": answer["details"], "gid": answer["gid"], "args_digest": answer["args_digest"]}
        print(CHIP_PREFIX + compact(chip))
        for detail in answer["details"]:
            print(f"  {safe(detail['name'])}: {safe(detail['value'])} ({', '.join(detail['flags'])})")
        print("waiting for the member's confirmation on standard input")
        sys.stdout.flush()
        confirmation = confirmations.readline().strip()
        if not confirmation:
            print("no confirmation: nothing written")
            return 1
        answer = sidecar.run(grant, op, args, confirmation=confirmation)
    if answer["status"] != "ok":
        return refused(answer)
    replayed = " (replayed: nothing sent again)" if answer.get("replayed") else ""
    print(f"wrote {op}: {answer['http_status']} {compact(answer['data'])}{replayed}")
    if "receipt" in answer:
        print(f"receipt: {answer['receipt']}")
    return 0


def listen(sidecar, grant, subscription, max_events, wait_ms):
    """Subscribes (when given a subscription), then long-polls the bot's events and prints each once, acknowledging with `next`."""
    if subscription is not None:
        answer = sidecar.subscribe(subscription, grant)
        if answer["status"] != "ok":
            return refused(answer)
        polls = ", ".join(f"{poll['event']} every {poll['every']} s (baseline {poll['baseline']})" for poll in answer["polls"])
        print(f"subscribed: {answer['sid']} {answer['integration']} {', '.join(answer['events'])}; {polls or 'no polls'}")
        sys.stdout.flush()
    after = None
    heard = 0
    while max_events == 0 or heard < max_events:
        answer = sidecar.events(after, wait_ms)
        if answer.get("truncated"):
            print("events: some events after the cursor are no longer kept (truncated)")
        for event in answer["events"]:
            heard += 1
            print(f"event: {compact(event)}")
            print(f"  {safe(event['line'])}")
        sys.stdout.flush()
        after = answer["next"]
    return 0


def main():
    parser = argparse.ArgumentParser(description="A bot that reads, pages and writes through its Eleven sidecar (SIDECAR_HOME).")
    parser.add_argument("--grant", required=True, help="file holding the member's grant (eg1.…)")
    parser.add_argument("--read", default="repos.list", help="a read op of the grant's integration (default repos.list)")
    parser.add_argument("--read-arg", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--pages", type=int, default=2, help="pages to read at most (default 2)")
    parser.add_argument("--write", help="a write op to run through the member's confirmation")
    parser.add_argument("--write-arg", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--approval", help="file holding a standing approval (ea1.…): the write runs with no tap when it covers it")
    parser.add_argument("--events", action="store_true", help="long-poll the bot's events and print them (instead of reading and writing)")
    parser.add_argument("--subscription", help="file holding a subscription (es1.…) to add first, polled under --grant")
    parser.add_argument("--max-events", type=int, default=0, help="stop after this many events (default 0: never)")
    parser.add_argument("--wait-ms", type=int, default=25000, help="how long one long poll waits, at most 30000 (default 25000)")
    options = parser.parse_args()

    home = os.environ.get("SIDECAR_HOME") or os.path.join(os.path.expanduser("~"), ".eleven-sidecar")
    with open(options.grant, encoding="utf-8") as file:
        grant = file.read().strip()
    approval = None
    if options.approval is not None:
        with open(options.approval, encoding="utf-8") as file:
            approval = file.read().strip()

    try:
        sidecar = Sidecar(home)
        identity = sidecar.identity()
        registry = identity["registry"]
        print(f"identity: bot key {identity['public_key']} (registry {registry['hash'][:12]}, {registry['source']})")
        if options.events:
            subscription = None
            if options.subscription is not None:
                with open(options.subscription, encoding="utf-8") as file:
                    subscription = file.read().strip()
            return listen(sidecar, grant, subscription, options.max_events, options.wait_ms)

        palette = sidecar.ops(grant)
        if palette["status"] != "ok":
            return refused(palette)
        print(f"ops: {palette['integration']} ({palette['access']}): {len(palette['ops'])} ops")
        for op in palette["ops"]:
            pages = ", pages" if "page" in op else ""
            print(f"  {op['id']} [{op['access']}{pages}] {safe(op['label'])}")

        review = sidecar.policy(grant, [approval] if approval is not None else [])
        if review["status"] == "ok":
            for op in review["ops"]:
                covered = op.get("approval")
                said = f"approved ({covered['runs_left']} runs left)" if covered else op["decision"]
                print(f"policy: {op['id']}: {said}")

        status = read_pages(sidecar, grant, options.read, named_args(options.read_arg), options.pages)
        if status != 0 or options.write is None:
            return status
        return write(sidecar, grant, options.write, named_args(options.write_arg), sys.stdin, approval)
    except SidecarRefused as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (FileNotFoundError, ConnectionRefusedError) as error:
        # The file name, never the caller token or the grant.
        print(f"error: cannot reach the sidecar in {home}: {type(error).__name__} {error.filename or ''}; is it running?", file=sys.stderr)
        return 2

if __name__ == "__main__":
    sys.exit(main())
