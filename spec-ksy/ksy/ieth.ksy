# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: ieth
  title: Invalidate Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Invalidate Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: r_key
    type: u4
    doc: Remote key to invalidate
