# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: mrcnpeth
  title: MR-CNP Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: MR-CNP Extended Transport Header.
doc-ref: 'metaroce-v1.md §7 (v1 draft r2)'
seq:
  - id: congested_path_id
    type: u2
    doc: Congested path
  - id: ce_count
    type: u2
    doc: CE-marked packets on that path (saturating)
  - id: rate_hint
    type: u1
    doc: Suggested rate reduction (1/256)
  - id: resv24
    type: b24
    doc: Reserved (reserved, must be 0)
