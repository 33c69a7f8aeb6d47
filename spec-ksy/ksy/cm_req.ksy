# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: cm_req
  title: CM ConnectRequest (REQ)
  license: CC0-1.0
  ks-version: '0.11'
  imports:
    - ip_cm
    - mrcm
  endian: be
  bit-endian: be
doc: 'IBTA Vol 1 12.6.5; 232 bytes after the MAD header.'
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: local_comm_id
    type: u4
    doc: Local communication ID
  - id: resv32
    type: u4
    doc: Reserved (reserved, must be 0)
  - id: service_id
    type: u8
    doc: Service ID
  - id: local_ca_guid
    type: u8
    doc: Local CA GUID
  - id: resv32b
    type: u4
    doc: Reserved (reserved, must be 0)
  - id: local_q_key
    type: u4
    doc: Local Q_Key
  - id: local_qpn
    type: b24
    doc: Local QPN
  - id: responder_resources
    type: u1
    doc: Responder resources
  - id: local_eecn
    type: b24
    doc: Local EECN
  - id: initiator_depth
    type: u1
    doc: Initiator depth
  - id: remote_eecn
    type: b24
    doc: Remote EECN
  - id: remote_cm_response_timeout
    type: b5
    doc: Remote CM response timeout
  - id: transport_service_type
    type: b2
    doc: Transport service type
  - id: end_to_end_flow_control
    type: b1
    doc: End-to-end flow control
  - id: starting_psn
    type: b24
    doc: Starting PSN
  - id: local_cm_response_timeout
    type: b5
    doc: Local CM response timeout
  - id: retry_count
    type: b3
    doc: Retry count
  - id: partition_key
    type: u2
    doc: Partition key
  - id: path_mtu
    type: b4
    doc: Path packet payload MTU
  - id: rdc_exists
    type: b1
    doc: RDC exists
  - id: rnr_retry_count
    type: b3
    doc: RNR retry count
  - id: max_cm_retries
    type: b4
    doc: Max CM retries
  - id: srq
    type: b1
    doc: SRQ
  - id: extended_transport_type
    type: b3
    doc: Extended transport type
  - id: primary_local_lid
    type: u2
    doc: Primary local port LID
  - id: primary_remote_lid
    type: u2
    doc: Primary remote port LID
  - id: primary_local_gid
    size: 16
    doc: Primary local port GID
  - id: primary_remote_gid
    size: 16
    doc: Primary remote port GID
  - id: primary_flow_label
    type: b20
    doc: Primary flow label
  - id: primary_resv6
    type: b6
    doc: Reserved (reserved, must be 0)
  - id: primary_packet_rate
    type: b6
    doc: Primary packet rate
  - id: primary_traffic_class
    type: u1
    doc: Primary traffic class
  - id: primary_hop_limit
    type: u1
    doc: Primary hop limit
  - id: primary_sl
    type: b4
    doc: Primary SL
  - id: primary_subnet_local
    type: b1
    doc: Primary subnet local
  - id: primary_resv3
    type: b3
    doc: Reserved (reserved, must be 0)
  - id: primary_local_ack_timeout
    type: b5
    doc: Primary local ACK timeout
  - id: primary_resv3b
    type: b3
    doc: Reserved (reserved, must be 0)
  - id: alternate_path
    size: 44
    doc: Alternate path
  - id: private_data
    size: 92
    doc: 'Private data (92 bytes): starts with the IP CM header (Annex A11)'
instances:
  transport_service_type_enum:
    value: transport_service_type
    enum: cm_transport
  path_mtu_enum:
    value: path_mtu
    enum: ib_mtu
  ip_cm:
    pos: 140
    type: ip_cm
    doc: RDMA IP CM private-data header (IBTA Annex A11), carried in private_data at byte 0
  mrcm_magic:
    pos: 176
    type: u2
  mrcm:
    pos: 176
    type: mrcm
    if: mrcm_magic == 0x4D52
    doc: MetaRoCE connection parameters (A2), carried in private_data at byte 36
enums:
  cm_transport:
    0x00:
      id: rc
      doc: RC
    0x01:
      id: uc
      doc: UC
    0x02:
      id: rd
      doc: RD
    0x03:
      id: xrc
      doc: XRC
  ib_mtu:
    0x01:
      id: mtu_256
      doc: '256'
    0x02:
      id: mtu_512
      doc: '512'
    0x03:
      id: mtu_1024
      doc: '1024'
    0x04:
      id: mtu_2048
      doc: '2048'
    0x05:
      id: mtu_4096
      doc: '4096'
