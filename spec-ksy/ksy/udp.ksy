# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: udp
  title: User Datagram Protocol
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: User Datagram Protocol.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: srcport
    type: u2
    doc: Source port (path entropy)
  - id: dstport
    type: u2
    doc: Destination port
  - id: length
    type: u2
    doc: Length (includes the ICRC)
  - id: checksum
    type: u2
    doc: 'Checksum (0 = none)'
