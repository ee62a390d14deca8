"""Summarise a py-spy raw (collapsed stacks) profile: the top functions by own time and by total time.

    .venv/bin/python bench/profile_summary.py /tmp/prof/m100-daphne-8030.txt [--top 30] [--match apps/]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

IDLE = re.compile(r"(select|epoll|poll|_run_once \(asyncio|wait \(threading|acquire|_worker \(concurrent|sleep)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--match", default="", help="only count total time of frames containing this text")
    args = parser.parse_args()
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    idle = 0
    for line in open(args.path):
        stack, _, count_text = line.rstrip().rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = stack.split(";")
        samples += count
        leaf = frames[-1]
        if IDLE.search(leaf):
            idle += count
        own[leaf] += count
        for frame in set(frames):
            if args.match in frame:
                total[frame] += count
    print(f"{samples} samples, {idle} ({100 * idle / max(1, samples):.0f}%) in waits (select/poll/locks/sleep)")
    print("\nown time:")
    for frame, count in own.most_common(args.top):
        print(f"  {100 * count / samples:5.1f}%  {frame}")
    print("\ntotal time:")
    for frame, count in total.most_common(args.top):
        print(f"  {100 * count / samples:5.1f}%  {frame}")


if __name__ == "__main__":
    main()
