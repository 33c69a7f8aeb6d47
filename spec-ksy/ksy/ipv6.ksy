# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: ipv6
  title: Internet Protocol version 6
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Internet Protocol version 6.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: version
    type: b4
    doc: Version
  - id: dscp
    type: b6
    doc: Differentiated Services Codepoint
  - id: ecn
    type: b2
    doc: Explicit Congestion Notification
  - id: flow
    type: b20
    doc: Flow label
  - id: plen
    type: u2
    doc: Payload length (includes the ICRC)
  - id: nxt
    type: u1
    doc: Next header
  - id: hlim
    type: u1
    doc: Hop limit
  - id: src
    size: 16
    doc: Source address
  - id: dst
    size: 16
    doc: Destination address
instances:
  ecn_enum:
    value: ecn
    enum: ecn
enums:
  ecn:
    0x00:
      id: not_ect
      doc: Not-ECT
    0x01:
      id: ect1
      doc: ECT(1)
    0x02:
      id: ect0
      doc: ECT(0)
    0x03:
      id: ce
      doc: CE
