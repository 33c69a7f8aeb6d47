# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: cm_rep
  title: CM ConnectReply (REP)
  license: CC0-1.0
  ks-version: '0.11'
  imports:
    - mrcm
  endian: be
  bit-endian: be
doc: 'IBTA Vol 1 12.6.8; 232 bytes after the MAD header.'
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: local_comm_id
    type: u4
    doc: Local communication ID
  - id: remote_comm_id
    type: u4
    doc: Remote communication ID
  - id: local_q_key
    type: u4
    doc: Local Q_Key
  - id: local_qpn
    type: b24
    doc: Local QPN
  - id: resv8a
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: local_ee_context
    type: b24
    doc: Local EE context
  - id: resv8b
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: starting_psn
    type: b24
    doc: Starting PSN
  - id: resv8c
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: responder_resources
    type: u1
    doc: Responder resources
  - id: initiator_depth
    type: u1
    doc: Initiator depth
  - id: target_ack_delay
    type: b5
    doc: Target ACK delay
  - id: failover_accepted
    type: b2
    doc: Failover accepted
  - id: end_to_end_flow_control
    type: b1
    doc: End-to-end flow control
  - id: rnr_retry_count
    type: b3
    doc: RNR retry count
  - id: srq
    type: b1
    doc: SRQ
  - id: resv4
    type: b4
    doc: Reserved (reserved, must be 0)
  - id: local_ca_guid
    type: u8
    doc: Local CA GUID
  - id: private_data
    size: 196
    doc: Private data (196 bytes)
instances:
  mrcm_magic:
    pos: 36
    type: u2
  mrcm:
    pos: 36
    type: mrcm
    if: mrcm_magic == 0x4D52
    doc: MetaRoCE connection parameters (A2), carried in private_data at byte 0
