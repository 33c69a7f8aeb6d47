# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: grh
  title: Global Route Header (RoCEv1, EtherType 0x8915)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Global Route Header (RoCEv1, EtherType 0x8915).
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: ip_version
    type: b4
    doc: IP version
  - id: tclass
    type: b8
    doc: Traffic class
  - id: flow_label
    type: b20
    doc: Flow label
  - id: paylen
    type: u2
    doc: Payload length
  - id: nxthdr
    type: u1
    doc: 'Next header (0x1B = BTH)'
  - id: hoplmt
    type: u1
    doc: Hop limit
  - id: sgid
    size: 16
    doc: Source GID
  - id: dgid
    size: 16
    doc: Destination GID
