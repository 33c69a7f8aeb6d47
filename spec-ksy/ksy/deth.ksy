# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: deth
  title: Datagram Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Datagram Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: q_key
    type: u4
    doc: Queue key
  - id: resv8
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: src_qp
    type: b24
    doc: Source QP
