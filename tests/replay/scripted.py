"""tests/replay/scripted.py: the scripted authoritative servers of a
scenario (tests/replay/README), for the replay driver. Each server
listens on port 53 of each of its addresses, UDP and TCP, in the
driver's own network namespace (and, as its "tls" line says, on port
853: DNS over TLS, a listener that stalls, or TLS that closes the
connection after N answers), and answers from its match entries:
the first entry that matches the question (and its conditions) makes
the reply, byte by byte as written (no compression, raw rdata as
given); an entry marked continue sends its reply and lets the next
matching entry send one too. A question that matches nothing is
answered from the zones the server serves ("serve" lines,
tests/replay/authzone.py), or else gets REFUSED. Signed zones add
their RRSIGs and proofs to every reply to a DO=1 query. Every question
is logged (Net.log) for the sent checks, with its transport (udp,
tcp, tls; a DNSCurve query, which no server can open, as curve), and
every connection to a port 853 is counted (Net.tls_conns).
"""

import socket
import ssl
import struct
import threading
import time

import dns.exception
import dns.message
import dns.name
import dns.rdatatype

from scnfile import FLAG_BITS, SECTIONS

EDNS_PAYLOAD = 1232
TYPE_OPT = 41
CLASS_IN = 1
RCODE_REFUSED = 5
POLL_SECS = 0.2
TCP_IDLE_SECS = 5.0
WRONG_ID_XOR = 0x5A5A
TLS_PORT = 853
TLS_HANDSHAKE_SECS = 5.0
# longer than any scenario's pause: a server that closes an idle
# connection itself would be a dropped connection to the daemon
TLS_IDLE_SECS = 50.0
CURVE_MAGIC = b"Q6fnvWj8"
CURVE_KEY_LABEL = 54


class Query:
    """One question as a server saw it (for the log and the checks)."""

    def __init__(self, server, addr, proto, msg):
        self.server, self.addr, self.proto = server, addr, proto
        self.qname = self.qtype = None
        if msg is not None:
            q = msg.question[0]
            self.qname, self.qtype = q.name, q.rdtype
        self.entry = None

    def __str__(self):
        if self.qname is None:
            return "%s@%s %s (boxed) -> no answer" % (
                self.server, self.addr, self.proto)
        return "%s@%s %s %s %s -> %s" % (
            self.server, self.addr, self.proto, self.qname,
            dns.rdatatype.to_text(self.qtype),
            "refused (no match)" if self.entry is None else
            "closed the connection (tls drop-after)" if self.entry < 0
            else "served zone" if self.entry == 0 else
            "entry %d" % self.entry)


def entry_matches(e, qname, qtype, proto, clock, rd=None):
    """Whether entry e takes (qname, qtype) over proto at scenario time
    clock; counts the query against e's queries range when it does."""
    if e.below:
        if not qname.is_subdomain(e.qname):
            return False
    elif qname != e.qname:
        return False
    if e.qtype is not None and e.qtype != qtype:
        return False
    if e.over is not None and e.over != proto:
        return False
    if e.rd is not None and e.rd != rd:
        return False
    lo, hi = e.time
    if (lo is not None and clock < lo) or (hi is not None and clock > hi):
        return False
    e.seen += 1
    lo, hi = e.queries
    return (lo is None or e.seen >= lo) and (hi is None or e.seen <= hi)


def curve_txt(query):
    """Whether query is a DNSCurve query in the TXT format: a TXT
    question whose name holds the client's key, a label of 54
    characters starting x1a."""
    if len(query.question) != 1 or \
            query.question[0].rdtype != dns.rdatatype.TXT:
        return False
    return any(len(l) == CURVE_KEY_LABEL and l.lower().startswith(b"x1a")
               for l in query.question[0].name.labels)


def rr_wire(rec):
    """One record, uncompressed; rdata raw when the scenario said so."""
    data = rec.raw if rec.raw is not None else rec.rdata.to_wire()
    return rec.owner.to_wire() + struct.pack(
        "!HHIH", rec.rdtype, CLASS_IN, rec.ttl, len(data)) + data


def opt_wire(query):
    """An OPT record when the query had EDNS (DO echoed), else b''."""
    if query.edns < 0:
        return b""
    do_bit = query.ednsflags & 0x8000
    return b"\x00" + struct.pack("!HHIH", TYPE_OPT, EDNS_PAYLOAD, do_bit, 0)


def question_wire(query, wrong, lower=False):
    """The question section: the query's own (case kept, or lowercased),
    or another name."""
    q = query.question[0]
    name = q.name
    if wrong:
        name = dns.name.Name((b"spoofed",) + name.labels)
    if lower:
        name = dns.name.Name(tuple(l.lower() for l in name.labels))
    return name.to_wire() + struct.pack("!HH", q.rdtype, q.rdclass)


def build_reply(e, query, proto, world=None):
    """The bytes of entry e's reply to query over proto, or None (drop);
    world (authzone.World) adds the signatures and proofs of signed
    zones."""
    acts = dict(e.actions)
    if "drop" in acts:
        return None
    truncate = "tc" in acts and proto == "udp"
    flags = FLAG_BITS["QR"] | (query.flags & FLAG_BITS["RD"]) | e.flags
    recs = e.sections
    if world is not None and not truncate:
        recs = world.decorate(e, query, recs)
    secs = [[] if truncate else [rr_wire(r) for r in recs[s]]
            for s in SECTIONS]
    if truncate:
        flags |= FLAG_BITS["TC"]
    elif "tc" in acts:
        flags &= ~FLAG_BITS["TC"]
    opt = opt_wire(query)
    if opt:
        secs[2].append(opt)
    qid = query.id ^ WRONG_ID_XOR if "wrong-id" in acts else query.id
    head = struct.pack("!HHHHHH", qid, flags | (e.rcode & 0xF), 1,
                       len(secs[0]), len(secs[1]), len(secs[2]))
    body = b"".join(b"".join(s) for s in secs)
    extra = acts.get("trailing") or b""
    question = question_wire(query, "wrong-question" in acts,
                             "lowercase" in acts)
    return head + question + body + extra


def refused(query):
    """REFUSED, no records: the answer to a question nobody scripted."""
    head = struct.pack("!HHHHHH", query.id,
                       FLAG_BITS["QR"] | (query.flags & FLAG_BITS["RD"]) |
                       RCODE_REFUSED, 1, 0, 0, 0)
    return head + question_wire(query, False)


class Net:
    """Every scripted server of a scenario, their sockets and threads."""

    def __init__(self, servers, world=None):
        self.servers = servers
        self.world = world
        self.clock = 0
        self.log = []
        self.errors = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.threads = []
        self.socks = []
        self.tls_ctx = None
        self.tls_conns = {}
        self.tls_answered = {}

    def replies(self, srv, addr, proto, wire):
        """(delay ms, bytes) to send for one query; a bug of the script
        (an exception) is kept in self.errors and answers nothing."""
        try:
            return self.script(srv, addr, proto, wire)
        except Exception as err:  # pylint: disable=broad-except
            with self.lock:
                self.errors.append("%s: %s: %s" % (srv.name,
                                                   type(err).__name__, err))
            return []

    def script(self, srv, addr, proto, wire):
        """(delay ms, bytes) to send for one query; logs the question."""
        try:
            query = dns.message.from_wire(wire)
        except (dns.exception.DNSException, ValueError):
            query = None
        if (query is None and wire.startswith(CURVE_MAGIC)) or \
                (query is not None and curve_txt(query)):
            with self.lock:
                self.log.append(Query(srv.name, addr, "curve", None))
            return []
        if query is None or len(query.question) != 1:
            return []
        rec = Query(srv.name, addr, proto, query)
        out = []
        with self.lock:
            self.log.append(rec)
            for idx, e in enumerate(srv.entries, 1):
                if not entry_matches(e, rec.qname.canonicalize(),
                                     rec.qtype, proto, self.clock,
                                     bool(query.flags & FLAG_BITS["RD"])):
                    continue
                rec.entry = idx if rec.entry is None else rec.entry
                pkt = build_reply(e, query, proto, self.world)
                if pkt is not None:
                    out.append((dict(e.actions).get("delay") or 0, pkt))
                if not e.cont:
                    return out
            if rec.entry is None and srv.serves:
                auto = self.world.answer(srv, query)
                if auto is not None:
                    rec.entry = 0
                    return [(0, build_reply(auto, query, proto,
                                            self.world))]
        return out if rec.entry is not None else [(0, refused(query))]

    def count(self, server, qname=None, qtype=None, proto=None):
        """Questions server has received (for qname, of qtype, over
        proto)."""
        with self.lock:
            return sum(1 for q in self.log if q.server == server and
                       (qname is None or q.qname == qname) and
                       (qtype is None or q.qtype == qtype) and
                       (proto is None or q.proto == proto))

    def connections(self, server):
        """Connections made to server's port 853 so far."""
        with self.lock:
            return self.tls_conns.get(server, 0)

    def start(self):
        """Bind every address (UDP and TCP, port 53; port 853 as the
        server's tls line says) and serve."""
        for srv in self.servers.values():
            for addr in srv.addrs:
                fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
                self.serve_udp(srv, addr, fam)
                self.serve_tcp(srv, addr, fam)
                if srv.tls_listens():
                    self.serve_tcp(srv, addr, fam, TLS_PORT)

    def spawn(self, fn, *args):
        """A daemon thread, remembered for shutdown."""
        t = threading.Thread(target=fn, args=args, daemon=True)
        t.start()
        self.threads.append(t)

    def serve_udp(self, srv, addr, fam):
        """UDP socket of srv on addr."""
        s = socket.socket(fam, socket.SOCK_DGRAM)
        s.bind((addr, 53))
        s.settimeout(POLL_SECS)
        self.socks.append(s)
        self.spawn(self.udp_loop, srv, addr, s)

    def udp_loop(self, srv, addr, s):
        """Answer datagrams until stop."""
        def answer(got):
            wire, peer = got
            for delay, pkt in self.replies(srv, addr, "udp", wire):
                self.later(delay, s.sendto, pkt, peer)
        self.poll(lambda: s.recvfrom(65535), answer)

    def poll(self, wait, handle):
        """handle(wait()) until stop; wait times out every POLL_SECS."""
        while not self.stop.is_set():
            try:
                got = wait()
            except (socket.timeout, OSError):
                continue
            handle(got)

    def later(self, delay_ms, fn, *args):
        """fn(*args) now or after delay_ms; errors are ignored."""
        def run():
            try:
                fn(*args)
            except OSError:
                pass
        if delay_ms <= 0:
            run()
            return
        t = threading.Timer(delay_ms / 1000.0, run)
        t.daemon = True
        t.start()

    def serve_tcp(self, srv, addr, fam, port=53):
        """TCP listener of srv on addr (port 53, or 853 for TLS)."""
        s = socket.socket(fam, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((addr, port))
        s.listen(16)
        s.settimeout(POLL_SECS)
        self.socks.append(s)
        self.spawn(self.tcp_accept, srv, addr, s, port)

    def tcp_accept(self, srv, addr, s, port):
        """Accept connections until stop; one thread each."""
        def start(got):
            conn = got[0]
            conn.settimeout(TCP_IDLE_SECS)
            if port != TLS_PORT:
                self.spawn(self.tcp_conn, srv, addr, conn)
                return
            with self.lock:
                self.tls_conns[srv.name] = \
                    self.tls_conns.get(srv.name, 0) + 1
                mode = srv.tls_mode(self.clock)
            self.spawn(self.tls_conn, srv, addr, conn, mode)
        self.poll(s.accept, start)

    def tls_conn(self, srv, addr, conn, mode):
        """Port 853 in mode (the server's tls line at the time of the
        connection): close it at once (no), hold it (stall), or
        handshake and answer framed queries over TLS until EOF, idle or
        drop-after. A delayed reply holds the replies after it (one
        thread)."""
        with conn:
            if mode[0] == "no":
                return
            if mode[0] == "stall" or self.tls_ctx is None:
                self.hold(conn)
                return
            conn.settimeout(TLS_HANDSHAKE_SECS)
            try:
                tconn = self.tls_ctx.wrap_socket(conn, server_side=True)
            except (ssl.SSLError, OSError):
                return
            with tconn:
                tconn.settimeout(TLS_IDLE_SECS)
                try:
                    self.tls_serve(srv, addr, tconn, mode[1])
                except OSError:
                    return

    def tls_serve(self, srv, addr, tconn, after):
        """The queries of one TLS connection, answered in order (the
        first after ones of the server when after is not None)."""
        while not self.stop.is_set():
            wire = read_framed(tconn)
            if wire is None or self.tls_drop(srv, addr, wire, after):
                return
            for delay, pkt in self.replies(srv, addr, "tls", wire):
                time.sleep(delay / 1000.0)
                tconn.sendall(struct.pack("!H", len(pkt)) + pkt)

    def hold(self, conn):
        """Read and ignore until EOF or stop (a port 853 that stalls)."""
        conn.settimeout(POLL_SECS)
        while not self.stop.is_set():
            try:
                if not conn.recv(4096):
                    return
            except socket.timeout:
                continue
            except OSError:
                return

    def tls_drop(self, srv, addr, wire, after):
        """Whether srv (tls drop-after N: after) has answered its N
        questions over TLS: this one is logged, unanswered, and its
        connection closed."""
        if after is None:
            return False
        with self.lock:
            done = self.tls_answered.get(srv.name, 0)
            if done < after:
                self.tls_answered[srv.name] = done + 1
                return False
            try:
                rec = Query(srv.name, addr, "tls",
                            dns.message.from_wire(wire))
                rec.entry = -1
                self.log.append(rec)
            except (dns.exception.DNSException, IndexError):
                pass
        return True

    def tcp_conn(self, srv, addr, conn):
        """Length-prefixed queries on one connection, until EOF or idle."""
        with conn:
            while not self.stop.is_set():
                wire = read_framed(conn)
                if wire is None:
                    return
                for delay, pkt in self.replies(srv, addr, "tcp", wire):
                    self.later(delay, conn.sendall,
                               struct.pack("!H", len(pkt)) + pkt)

    def shutdown(self):
        """Stop the threads (bounded) and close the sockets."""
        self.stop.set()
        for t in self.threads:
            t.join(timeout=1.0)
        for s in self.socks:
            s.close()


def read_exact(conn, n):
    """n bytes from conn, or None on EOF, error or idle timeout."""
    buf = b""
    while len(buf) < n:
        try:
            chunk = conn.recv(n - len(buf))
        except OSError:
            return None
        if not chunk:
            return None
        buf += chunk
    return buf


def read_framed(conn):
    """One DNS message from a TCP stream (2-byte length prefix)."""
    head = read_exact(conn, 2)
    if head is None:
        return None
    return read_exact(conn, struct.unpack("!H", head)[0])
