# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: mrcm
  title: MetaRoCE connection parameters (A2)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: |
  REQ: private data offset 36 (after the IP CM header), the requester's direction. REP: private data
  offset 0 (a REP carries no IP CM header), the responder's direction.
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: magic
    type: u2
    doc: 'Magic (0x4D52 "MR")'
  - id: version
    type: u1
    doc: Version
  - id: spray
    type: b1
    doc: Spray
  - id: credit
    type: b1
    doc: Credit mode
  - id: resv_flags
    type: b6
    doc: Reserved flags (reserved, must be 0)
  - id: path_count
    type: u2
    doc: Path count (1..1024)
  - id: base_port
    type: u2
    doc: Base UDP source port
  - id: pmtu_log2
    type: u1
    doc: log2 of the PMTU (8..12)
  - id: resv24
    type: b24
    doc: Reserved (reserved, must be 0)
