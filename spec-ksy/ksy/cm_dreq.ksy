# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: cm_dreq
  title: CM DisconnectRequest (DREQ)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: CM DisconnectRequest (DREQ).
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: local_comm_id
    type: u4
    doc: Local communication ID
  - id: remote_comm_id
    type: u4
    doc: Remote communication ID
  - id: remote_qpn
    type: b24
    doc: Remote QPN
  - id: resv8
    type: u1
    doc: Reserved (reserved, must be 0)
