# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: cm_rej
  title: CM ConnectReject (REJ)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: CM ConnectReject (REJ).
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: local_comm_id
    type: u4
    doc: Local communication ID
  - id: remote_comm_id
    type: u4
    doc: Remote communication ID
  - id: message_rejected
    type: b2
    doc: Message rejected
  - id: resv6
    type: b6
    doc: Reserved (reserved, must be 0)
  - id: reject_info_length
    type: b7
    doc: Reject info length
  - id: resv1
    type: b1
    doc: Reserved (reserved, must be 0)
  - id: reason
    type: u2
    doc: Reason
