//! The handshake's scenarios: success, every refusal, and the deadline.

use super::*;
use crate::message::BROADCAST;
use std::time::Duration;
use tokio::io::DuplexStream;

fn secret() -> Secret {
    Secret::from_hex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff").unwrap()
}

fn cfg() -> WireConfig {
    WireConfig {
        handshake_timeout: Duration::from_millis(200),
        ..WireConfig::default()
    }
}

fn pipe() -> (DuplexStream, DuplexStream) {
    tokio::io::duplex(64 * 1024)
}

/// A hand-driven client: framed, but every message chosen by the test.
fn raw(stream: DuplexStream) -> (FrameReader, FrameWriter) {
    frame::split(stream, HANDSHAKE_MAX_FRAME)
}

fn hello(major: u16, magic: [u8; 4]) -> Envelope {
    let hello = Hello {
        magic,
        major,
        minor: 3,
        role: "inspector".into(),
        name: "inspector-quality".into(),
        nonce: [5; 32],
        kind: "quality".into(),
    };
    Envelope::new("inspector-quality", LEAD, Body::Hello(hello))
}

fn quality() -> Claimed<'static> {
    Claimed {
        role: "inspector",
        kind: "quality",
        name: "inspector-quality",
    }
}

fn note(from: &str, n: u64) -> Envelope {
    let mut env = Envelope::new(
        from,
        BROADCAST,
        Body::AllReportsIn {
            review: format!("r{n}"),
        },
    );
    env.correlation = Some(n);
    env
}

#[tokio::test]
async fn authenticated_peers_exchange_envelopes_in_order() {
    let (a, b) = pipe();
    let (s, cfg) = (secret(), cfg());
    let (client, server) = tokio::join!(
        client_handshake(a, &s, "inspector", "inspector-quality", &cfg),
        server_handshake(b, &s, &cfg),
    );
    let (mut c_rx, mut c_tx) = client.unwrap();
    let (peer, mut s_rx, mut s_tx) = server.unwrap();
    let expected = PeerInfo {
        role: "inspector".into(),
        name: "inspector-quality".into(),
        kind: String::new(),
        minor: PROTOCOL_MINOR,
    };
    assert_eq!(peer, expected);

    let up: Vec<_> = (0..5).map(|n| note("inspector-quality", n)).collect();
    let down: Vec<_> = (0..5).map(|n| note(LEAD, n)).collect();
    for (u, d) in up.iter().zip(&down) {
        c_tx.send(u).await.unwrap();
        s_tx.send(d).await.unwrap();
    }
    for (u, d) in up.iter().zip(&down) {
        assert_eq!(s_rx.recv().await.unwrap().as_ref(), Some(u));
        assert_eq!(c_rx.recv().await.unwrap().as_ref(), Some(d));
    }
    c_tx.close().await;
    assert_eq!(s_rx.recv().await.unwrap(), None);
}

#[tokio::test]
async fn a_wrong_secret_is_refused_on_both_sides() {
    let (a, b) = pipe();
    let wrong =
        Secret::from_hex("ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100")
            .unwrap();
    let (right, cfg) = (secret(), cfg());
    let (client, server) = tokio::join!(
        client_handshake(a, &wrong, "inspector", "inspector-quality", &cfg),
        server_handshake(b, &right, &cfg),
    );
    let server_err = server.unwrap_err();
    assert!(
        matches!(server_err, WireError::Handshake(ref m) if m.starts_with(AUTH_FAILED)),
        "{server_err}"
    );
    assert!(server_err.to_string().contains("inspector-quality"));
    let client_err = client.unwrap_err();
    assert!(
        matches!(client_err, WireError::Rejected(ref r) if r == AUTH_FAILED),
        "{client_err}"
    );
}

#[tokio::test]
async fn after_a_refused_auth_nothing_more_is_accepted() {
    let (a, b) = pipe();
    let server = tokio::spawn(async move { server_handshake(b, &secret(), &cfg()).await });
    let (mut rd, mut wr) = raw(a);
    send_plain(&mut wr, &hello(PROTOCOL_MAJOR, MAGIC))
        .await
        .unwrap();
    assert!(matches!(
        recv_plain(&mut rd).await.unwrap().body,
        Body::Challenge { .. }
    ));
    let forged = Envelope::new("inspector-quality", LEAD, Body::Auth { mac: vec![0; 32] });
    send_plain(&mut wr, &forged).await.unwrap();
    let reply = recv_plain(&mut rd).await.unwrap();
    assert_eq!(
        reply.body,
        Body::Reject {
            reason: AUTH_FAILED.into()
        }
    );
    assert!(matches!(
        server.await.unwrap(),
        Err(WireError::Handshake(_))
    ));
    // The server has closed: the stream ends, and a further frame goes nowhere.
    assert!(rd.next().await.is_none());
    let _ = send_plain(&mut wr, &note("inspector-quality", 1)).await;
    assert!(rd.next().await.is_none());
}

#[tokio::test]
async fn a_newer_major_version_is_refused_naming_both_versions() {
    let (a, b) = pipe();
    let (s, cfg) = (secret(), cfg());
    let theirs = (PROTOCOL_MAJOR + 1, 3);
    let who = quality();
    let (client, server) = tokio::join!(
        client_handshake_speaking(a, &s, &who, &cfg, theirs),
        server_handshake(b, &s, &cfg),
    );
    let ours_text = format!("{PROTOCOL_MAJOR}.{PROTOCOL_MINOR}");
    let theirs_text = format!("{}.{}", theirs.0, theirs.1);

    let server_err = server.unwrap_err();
    assert!(
        matches!(server_err, WireError::VersionMismatch { ours, theirs: t }
            if ours == (PROTOCOL_MAJOR, PROTOCOL_MINOR) && t == theirs),
        "{server_err}"
    );
    let client_err = client.unwrap_err();
    let WireError::Rejected(reason) = &client_err else {
        panic!("expected Rejected, got {client_err}");
    };
    assert_eq!(
        reason,
        &format!(
            "protocol major version mismatch: lead speaks {ours_text}, \
             inspector-quality speaks {theirs_text}"
        )
    );
    for err in [server_err.to_string(), client_err.to_string()] {
        assert!(
            err.contains(&ours_text) && err.contains(&theirs_text),
            "{err}"
        );
    }
}

#[tokio::test]
async fn a_bad_magic_is_refused() {
    let (a, b) = pipe();
    let server = tokio::spawn(async move { server_handshake(b, &secret(), &cfg()).await });
    let (mut rd, mut wr) = raw(a);
    send_plain(&mut wr, &hello(PROTOCOL_MAJOR, *b"HTTP"))
        .await
        .unwrap();
    assert!(matches!(
        recv_plain(&mut rd).await.unwrap().body,
        Body::Reject { .. }
    ));
    let err = server.await.unwrap().unwrap_err();
    assert!(
        matches!(err, WireError::Handshake(ref m) if m.contains("bad magic")),
        "{err}"
    );
}

#[tokio::test]
async fn a_first_message_other_than_hello_is_refused() {
    let (a, b) = pipe();
    let server = tokio::spawn(async move { server_handshake(b, &secret(), &cfg()).await });
    let (mut rd, mut wr) = raw(a);
    send_plain(&mut wr, &note("inspector-quality", 1))
        .await
        .unwrap();
    assert!(matches!(
        recv_plain(&mut rd).await.unwrap().body,
        Body::Reject { .. }
    ));
    let err = server.await.unwrap().unwrap_err();
    assert!(
        matches!(err, WireError::Handshake(ref m) if m.contains("expected Hello")),
        "{err}"
    );
}

#[tokio::test]
async fn garbage_or_an_oversized_frame_before_authentication_is_refused() {
    let (a, b) = pipe();
    let server = tokio::spawn(async move { server_handshake(b, &secret(), &cfg()).await });
    let (_rd, mut wr) = raw(a);
    wr.send(Bytes::from_static(&[0xFF; 16])).await.unwrap();
    assert!(matches!(server.await.unwrap(), Err(WireError::Decode(_))));

    // The handshake's cap is far below max_frame: 20 KiB is too much for a Hello.
    let (a, b) = pipe();
    let server = tokio::spawn(async move { server_handshake(b, &secret(), &cfg()).await });
    let (_rd, mut wr) = frame::split(a, 1 << 20);
    wr.send(Bytes::from(vec![0u8; 20 * 1024])).await.unwrap();
    let err = server.await.unwrap().unwrap_err();
    assert!(
        matches!(
            err,
            WireError::FrameTooLarge {
                len: 20480,
                max: HANDSHAKE_MAX_FRAME
            }
        ),
        "{err}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_silent_client_times_out() {
    let (_silent, b) = pipe();
    let cfg = cfg();
    let started = tokio::time::Instant::now();
    let err = server_handshake(b, &secret(), &cfg).await.unwrap_err();
    assert!(matches!(err, WireError::Timeout("handshake")), "{err}");
    assert_eq!(started.elapsed(), cfg.handshake_timeout);
}

#[tokio::test(start_paused = true)]
async fn a_silent_server_times_out() {
    let (a, _silent) = pipe();
    let cfg = cfg();
    let started = tokio::time::Instant::now();
    let err = client_handshake(a, &secret(), "auditor", "auditor", &cfg)
        .await
        .unwrap_err();
    assert!(matches!(err, WireError::Timeout("handshake")), "{err}");
    assert_eq!(started.elapsed(), cfg.handshake_timeout);
}

#[tokio::test]
async fn a_server_without_the_secret_cannot_welcome_the_client() {
    let (a, b) = pipe();
    let client =
        tokio::spawn(
            async move { client_handshake(a, &secret(), "auditor", "auditor", &cfg()).await },
        );
    let (mut rd, mut wr) = raw(b);
    let Body::Hello(hello) = recv_plain(&mut rd).await.unwrap().body else {
        panic!("expected Hello");
    };
    assert_eq!(
        (hello.role.as_str(), hello.name.as_str()),
        ("auditor", "auditor")
    );
    send_plain(
        &mut wr,
        &Envelope::new(LEAD, "auditor", Body::Challenge { nonce: [1; 32] }),
    )
    .await
    .unwrap();
    assert!(matches!(
        recv_plain(&mut rd).await.unwrap().body,
        Body::Auth { .. }
    ));
    let impostor = Envelope::new(LEAD, "auditor", Body::Welcome { proof: vec![0; 32] });
    send_plain(&mut wr, &impostor).await.unwrap();
    let err = client.await.unwrap().unwrap_err();
    assert!(
        matches!(err, WireError::Handshake(ref m) if m.contains("not our Lead")),
        "{err}"
    );
}

#[tokio::test]
async fn the_kind_reaches_the_server_and_a_plain_client_announces_none() {
    let (s, cfg) = (secret(), cfg());
    let (a, b) = pipe();
    let (client, server) = tokio::join!(
        client_handshake_kind(a, &s, "inspector", "quality", "inspector-quality@h-7", &cfg),
        server_handshake(b, &s, &cfg),
    );
    client.unwrap();
    let (peer, _, _) = server.unwrap();
    assert_eq!(
        (peer.role.as_str(), peer.kind.as_str(), peer.name.as_str()),
        ("inspector", "quality", "inspector-quality@h-7")
    );
    let (a, b) = pipe();
    let (client, server) = tokio::join!(
        client_handshake(a, &s, "auditor", "auditor", &cfg),
        server_handshake(b, &s, &cfg),
    );
    client.unwrap();
    assert_eq!(server.unwrap().0.kind, "");
}

#[tokio::test]
async fn a_kind_changed_after_the_proof_is_refused() {
    // A client whose Hello says one kind but whose proof covers another: what a peer that
    // rewrote the Hello in transit would produce.
    let (a, b) = pipe();
    let s = secret();
    let client = async move {
        let (mut rd, mut wr) = raw(a);
        send_plain(&mut wr, &hello(PROTOCOL_MAJOR, MAGIC))
            .await
            .unwrap();
        let Body::Challenge { nonce: server } = recv_plain(&mut rd).await.unwrap().body else {
            panic!("expected Challenge");
        };
        let forged = Claimed {
            kind: "test",
            ..quality()
        };
        let mac = mac::auth_mac(&s, &[5; 32], &server, &forged).to_vec();
        let auth = Envelope::new("inspector-quality", LEAD, Body::Auth { mac });
        send_plain(&mut wr, &auth).await.unwrap();
        recv_plain(&mut rd).await
    };
    let (theirs, cfg) = (secret(), cfg());
    let (reply, server) = tokio::join!(client, server_handshake(b, &theirs, &cfg));
    let refused = Body::Reject {
        reason: AUTH_FAILED.into(),
    };
    assert_eq!(reply.unwrap().body, refused);
    assert!(matches!(server, Err(WireError::Handshake(m)) if m.contains(AUTH_FAILED)));
}
