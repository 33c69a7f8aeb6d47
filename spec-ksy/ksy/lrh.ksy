# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: lrh
  title: Local Route Header (native InfiniBand)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: |
  Native InfiniBand (RoCE's ancestor): the LRH starts every packet on an InfiniBand link, in ERF
  records (pcap link type 197, ERF type 21) or pcap link type 247. lnh 2 = BTH next, 3 = GRH next.
  pkt_len counts 4-byte words from the LRH to the ICRC inclusive; a 2-byte VCRC follows.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: vl
    type: b4
    doc: Virtual lane
  - id: lver
    type: b4
    doc: Link version
  - id: sl
    type: b4
    doc: Service level
  - id: resv2
    type: b2
    doc: Reserved (reserved, must be 0)
  - id: lnh
    type: b2
    doc: 'Link next header (2 = BTH, 3 = GRH)'
  - id: dlid
    type: u2
    doc: Destination local ID
  - id: resv5
    type: b5
    doc: Reserved (reserved, must be 0)
  - id: pkt_len
    type: b11
    doc: Packet length (4-byte words)
  - id: slid
    type: u2
    doc: Source local ID
