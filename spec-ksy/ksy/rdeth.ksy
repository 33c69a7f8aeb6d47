# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: rdeth
  title: Reliable Datagram Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Reliable Datagram Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: resv8
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: ee_context
    type: b24
    doc: EE context
