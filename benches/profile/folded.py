#!/usr/bin/env python3
"""Shares of CPU samples from a folded-stacks file (perf script | stackcollapse-perf.pl --kernel),
as scripts/profile-proxy.sh --perf writes it: where the leaf frame is (kernel or a crate), and
how much runs under a few frames of interest (inclusive, overlapping).

Usage: folded.py FILE
"""

import re
import sys
from collections import defaultdict

INCLUSIVE = [
    ("kernel (any frame in the kernel at the leaf)", None),
    ("system calls (entry_SYSCALL at any depth)", r"entry_SYSCALL|do_syscall_64"),
    ("network send/receive in the kernel", r"tcp_sendmsg|tcp_recvmsg|sock_sendmsg|sock_recvmsg|__sys_sendto|__sys_recvfrom|sock_write_iter|sock_read_iter"),
    ("epoll", r"epoll_wait|ep_poll|do_epoll"),
    ("futex / thread wake-ups", r"futex"),
    ("gateway request handling (routes::handle)", r"tdqs_gateway::proxy::routes::handle"),
    ("reqwest (client side)", r"reqwest::"),
    ("hyper server dispatch", r"hyper::proto::h1::role::Server|Server<.*>::poll|hyper::server::conn"),
    ("hyper client dispatch", r"hyper::proto::h1::role::Client|hyper::client::"),
    ("telemetry (tracing, opentelemetry)", r"opentelemetry|tracing_core|tracing::span"),
    ("malloc/free", r"(^|;)(malloc|free|_int_malloc|_int_free|realloc|cfree)(;|$)"),
]


def main():
    counts = []
    total = 0
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if not n.isdigit():
                continue
            counts.append((stack, int(n)))
            total += int(n)
    if not total:
        print("no samples")
        return
    print(f"{total} samples\n")
    print("| under (inclusive) | share of samples |")
    print("|---|---:|")
    for label, pattern in INCLUSIVE:
        if pattern is None:
            n = sum(c for s, c in counts if s.split(";")[-1].endswith("_[k]"))
        else:
            n = sum(c for s, c in counts if re.search(pattern, s))
        print(f"| {label} | {100 * n / total:.1f}% |")
    leaf = defaultdict(int)
    for s, c in counts:
        frame = s.split(";")[-1]
        key = "kernel" if frame.endswith("_[k]") else re.split(r"::|<", frame.lstrip("<&"), maxsplit=1)[0] or frame
        leaf[key] += c
    print("\n| leaf frame's crate | share |")
    print("|---|---:|")
    for k, c in sorted(leaf.items(), key=lambda kv: -kv[1])[:15]:
        print(f"| {k} | {100 * c / total:.1f}% |")


if __name__ == "__main__":
    main()
