#!/usr/bin/env python3
"""Writes the committed seed corpus of the fuzz module from the bundled samples and reference vectors.

Small files only (each cut to a few KB). Run from the repository root: python3 fuzz/seed-corpus.py
Findings (crashers) are added by hand next to these seeds, named after what they reproduce.
"""
import os, re, struct

ROOT = 'fuzz/src/test/resources/io/metaroce/fuzz'
CUT = 3072


def put(cls, method, name, data):
    d = os.path.join(ROOT, cls + 'Inputs', method)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def read(p):
    with open(p, 'rb') as f:
        return f.read()


def pcap_frames(data):
    """(linktype, frame bytes) of a little-endian microsecond pcap."""
    linktype = struct.unpack_from('<I', data, 20)[0]
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from('<I', data, off + 8)[0]
        out.append((linktype, data[off + 16:off + 16 + incl]))
        off += 16 + incl
    return out


refs = sorted(f for f in os.listdir('samples/reference') if f.endswith('.pcap'))
for f in refs:
    data = read('samples/reference/' + f)
    put('CaptureReaderFuzzTest', 'pcap', f, data[:CUT])
    # Dissector: byte 0 picks the link type (0 = Ethernet, 3 = raw IP), byte 1 the FCS/cut flags.
    seen = set()
    for i, (lt, frame) in enumerate(pcap_frames(data)):
        key = frame[12:14] + frame[23:24] + frame[42:43]  # ethertype, IP proto, BTH opcode: one frame per kind
        if lt != 1 or key in seen:
            continue
        seen.add(key)
        stem = f[:-5] + '-' + str(i)
        put('DissectorFuzzTest', 'dissectAnyLinkType', stem + '-eth', b'\x00\x00' + frame)
        if frame[12:14] in (b'\x08\x00', b'\x86\xdd'):
            put('DissectorFuzzTest', 'dissectAnyLinkType', stem + '-raw', b'\x03\x00' + frame[14:])

ngs = ['capture/src/test/resources/pcaps/roce_v4_oracle.pcapng'] + ['samples/captures/' + f for f in (
    'rocev2-clean.pcapng', 'rocev2-read-atomic.pcapng', 'capture-gaps-truncated.pcapng', 'metaroce-path-down.pcapng')]
for p in ngs:
    put('CaptureReaderFuzzTest', 'pcapng', os.path.basename(p), read(p)[:CUT])

filters = [
    'bth.psn == aeth.msn or (mrth and bth.psn in {1 2}) or ip.src == 10.0.0.0/8',
    'bth.psn >= 50 and bth.psn in {1 2 3 100..200} and ip.src == 10.0.0.0/24',
    'infiniband.bth.psn == 100 && infiniband.bth.opcode == RC_SEND_ONLY',
    '!(vlan.id == 100)', '10.0.0.0/8 == ip.src', '50 < bth.psn', 'bth.psn  eq  100',
    'eth.src == 02:00:00:00:00:01 and ipv6.dst == fe80::1/64', 'aeth.syndrome & 0x60 == 0x60',
    'frame contains de:ad:be:ef', 'ip.dst matches "(?-i)^10\\\\."', 'bth.opcode not in {0x04, 0x0a}',
    'all bth.psn != 3 xor any udp.dstport == 4791', 'udp.dstport == \'a\' || ip.ttl == 0b101 ^^ ip.ttl == 017',
    'mrth.path_id == r"x"', 'bth.destqp === 0x000011', 'bth',
]
for i, f in enumerate(filters):
    put('DisplayFilterFuzzTest', 'compileAnyText', 'filter-%02d' % i, f.encode())

readme = read('README.md').decode()
m = re.search(r'```yaml\n(.*?offloaded:.*?)```', readme, re.S)
configs = [m.group(1) if m else 'tap: auto\n', 'tap: receiver\nthresholds: {pmtu: 4096, roce_udp_ports: [4791]}\n',
           '{"rules": ["MR-*"], "severity": {"MR-HDR-003": "warn"}}\n', '- just\n- a list\n', 'pmtu: {"12": 256}\n']
for i, c in enumerate(configs):
    put('ValidateConfigFuzzTest', 'loadAnyConfig', 'config-%02d.yaml' % i, c.encode())
