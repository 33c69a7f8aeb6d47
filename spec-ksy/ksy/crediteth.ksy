# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: crediteth
  title: MR-CREDIT Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: MR-CREDIT Extended Transport Header.
doc-ref: 'metaroce-v1.md §7 (v1 draft r2)'
seq:
  - id: resv8
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: granted_psn
    type: b24
    doc: Granted PSN (exclusive)
  - id: granted_bytes
    type: u4
    doc: 'Cumulative granted bytes (mod 2^32)'
