# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: feth
  title: Flush Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: Flush Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: resv
    type: b27
    doc: Reserved (reserved, must be 0)
  - id: selectivity_level
    type: b2
    doc: Selectivity level
  - id: placement_type
    type: b3
    doc: Placement type
