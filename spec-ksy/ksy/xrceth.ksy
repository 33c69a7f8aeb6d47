# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: xrceth
  title: XRC Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: XRC Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: resv8
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: xrc_srq
    type: b24
    doc: XRC shared receive queue
