//! The screen on GNOME and KDE through the ScreenCast portal: a session sharing one
//! monitor, chosen by the person once (the portal's restore token is kept and replaced on
//! every start, like the remote desktop's), whose frames come over PipeWire through the
//! remote the portal opens. A frame is taken on demand: the stream is connected, the first
//! frame copied, and the stream let go.

use std::cell::RefCell;
use std::io::Cursor;
use std::os::fd::OwnedFd;
use std::rc::Rc;
use std::sync::Once;
use std::time::Duration;

use ashpd::desktop::screencast::{Screencast, SelectSourcesOptions, SourceType};
use ashpd::desktop::{CreateSessionOptions, PersistMode, Session};
use pipewire as pw;
use pw::spa;
use pw::spa::param::format::{FormatProperties, MediaSubtype, MediaType};
use pw::spa::param::video::{VideoFormat, VideoInfoRaw};
use pw::spa::param::ParamType;
use pw::spa::pod::serialize::PodSerializer;
use pw::spa::pod::{self, Pod};
use pw::spa::utils::{Direction, Fraction, Rectangle, SpaTypes};

use super::screenshot::Picture;
use super::tokens::Tokens;
use super::{within, CALL_LIMIT};
use crate::DisplayError;

const PORTAL: &str = "ScreenCast";

/// A started screen-cast session: the monitor's stream and the PipeWire remote to read it.
pub struct Cast {
    session: Session<Screencast>,
    /// The stream's PipeWire node.
    pub node: u32,
    /// The monitor's size in the layout, as the portal says.
    pub size: Option<(i32, i32)>,
    remote: OwnedFd,
}

/// Starts a session on the portal at `conn`: the person chooses the monitor (within
/// `ask_limit`) unless the kept token still holds.
pub async fn start(
    conn: ashpd::zbus::Connection,
    tokens: &Tokens,
    ask_limit: Duration,
) -> Result<Cast, DisplayError> {
    let portal = within(
        PORTAL,
        "connecting",
        CALL_LIMIT,
        Screencast::with_connection(conn),
    )
    .await?;
    let session = within(
        PORTAL,
        "creating a session",
        CALL_LIMIT,
        portal.create_session(CreateSessionOptions::default()),
    )
    .await?;
    // Restore tokens came with version 4 of the portal.
    let remembers = portal.version() >= 4;
    let kept = tokens.load().filter(|_| remembers);
    let mut sources = SelectSourcesOptions::default()
        .set_sources(ashpd::enumflags2::BitFlags::from(SourceType::Monitor))
        .set_multiple(false);
    if remembers {
        sources = sources
            .set_persist_mode(PersistMode::ExplicitlyRevoked)
            .set_restore_token(kept.as_deref());
    }
    within(PORTAL, "choosing the screen", CALL_LIMIT, async {
        portal.select_sources(&session, sources).await?.response()
    })
    .await?;
    let started = within(PORTAL, "asking to share the screen", ask_limit, async {
        portal
            .start(&session, None, Default::default())
            .await?
            .response()
    })
    .await;
    let streams = tokens.settle(started, |s| s.restore_token())?;
    let Some(stream) = streams.streams().first() else {
        return Err(DisplayError::Portal {
            portal: PORTAL,
            doing: "asking to share the screen",
            reason: "it shared no stream".into(),
        });
    };
    let (node, size) = (stream.pipe_wire_node_id(), stream.size());
    let remote = within(
        PORTAL,
        "opening the PipeWire remote",
        CALL_LIMIT,
        portal.open_pipe_wire_remote(&session, Default::default()),
    )
    .await?;
    Ok(Cast {
        session,
        node,
        size,
        remote,
    })
}

impl Cast {
    /// One frame of the shared monitor, within `limit`. Blocking: runs PipeWire's loop on
    /// this thread until the frame comes.
    pub fn frame(&self, limit: Duration) -> Result<Picture, DisplayError> {
        let failed = |reason: String| DisplayError::Portal {
            portal: PORTAL,
            doing: "reading a frame over PipeWire",
            reason,
        };
        let fd = self
            .remote
            .try_clone()
            .map_err(|e| failed(format!("the remote's descriptor: {e}")))?;
        frame_from(fd, self.node, limit).map_err(failed)
    }

    /// Ends the session.
    pub async fn close(self) {
        let _ = tokio::time::timeout(CALL_LIMIT, self.session.close()).await;
    }
}

/// The stream's negotiated format, and the frame once one came.
#[derive(Default)]
struct Got {
    format: VideoInfoRaw,
    picture: Option<Result<Picture, String>>,
}

fn frame_from(fd: OwnedFd, node: u32, limit: Duration) -> Result<Picture, String> {
    static INIT: Once = Once::new();
    INIT.call_once(pw::init);
    let mainloop = pw::main_loop::MainLoopRc::new(None).map_err(|e| e.to_string())?;
    let context = pw::context::ContextRc::new(&mainloop, None).map_err(|e| e.to_string())?;
    let core = context
        .connect_fd_rc(fd, None)
        .map_err(|e| format!("connecting to PipeWire through the portal's remote: {e}"))?;
    let stream = pw::stream::StreamBox::new(
        &core,
        "zeta-screenshot",
        pw::properties::properties! {
            *pw::keys::MEDIA_TYPE => "Video",
            *pw::keys::MEDIA_CATEGORY => "Capture",
            *pw::keys::MEDIA_ROLE => "Screen",
        },
    )
    .map_err(|e| e.to_string())?;
    let got = Rc::new(RefCell::new(Got::default()));
    let on_format = Rc::clone(&got);
    let on_frame = Rc::clone(&got);
    let quit = mainloop.clone();
    let _listener = stream
        .add_local_listener_with_user_data(())
        .param_changed(move |_, _, id, param| {
            let Some(param) = param else {
                return;
            };
            if id != ParamType::Format.as_raw() {
                return;
            }
            let Ok((media, sub)) = spa::param::format_utils::parse_format(param) else {
                return;
            };
            // PipeWire may call back while another callback runs (seen: `process` again
            // from inside `pw_main_loop_quit` in `process`, on a fresh Debian 12): a
            // callback that finds the state in use leaves it to the one running.
            if media == MediaType::Video && sub == MediaSubtype::Raw {
                if let Ok(mut got) = on_format.try_borrow_mut() {
                    let _ = got.format.parse(param);
                }
            }
        })
        .process(move |stream, _| {
            let Some(mut buffer) = stream.dequeue_buffer() else {
                return;
            };
            let Ok(mut got) = on_frame.try_borrow_mut() else {
                return;
            };
            if got.picture.is_some() {
                return;
            }
            let format = got.format;
            let datas = buffer.datas_mut();
            let Some(data) = datas.first_mut() else {
                return;
            };
            let stride = data.chunk().stride().max(0) as usize;
            let size = format.size();
            let picture = data
                .data()
                .ok_or_else(|| "the frame is not in shared memory".to_string())
                .and_then(|bytes| to_picture(bytes, format.format(), size, stride));
            got.picture = Some(picture);
            // Quitting may dispatch `process` again: the state is let go first.
            drop(got);
            quit.quit();
        })
        .register()
        .map_err(|e| e.to_string())?;
    let params = format_params().map_err(|e| format!("the formats asked for: {e}"))?;
    let mut params = [Pod::from_bytes(&params).ok_or("the formats asked for do not parse")?];
    stream
        .connect(
            Direction::Input,
            Some(node),
            pw::stream::StreamFlags::AUTOCONNECT | pw::stream::StreamFlags::MAP_BUFFERS,
            &mut params,
        )
        .map_err(|e| format!("connecting to stream {node}: {e}"))?;
    let stop = mainloop.clone();
    let timer = mainloop.loop_().add_timer(move |_| stop.quit());
    let _ = timer.update_timer(Some(limit), None);
    mainloop.run();
    let _ = stream.disconnect();
    let taken = got.try_borrow_mut().ok().and_then(|mut g| g.picture.take());
    taken.unwrap_or_else(|| Err(format!("no frame came within {} s", limit.as_secs_f32())))
}

/// The raw video formats Zeta reads, at any size.
fn format_params() -> Result<Vec<u8>, String> {
    let obj = pod::object!(
        SpaTypes::ObjectParamFormat,
        ParamType::EnumFormat,
        pod::property!(FormatProperties::MediaType, Id, MediaType::Video),
        pod::property!(FormatProperties::MediaSubtype, Id, MediaSubtype::Raw),
        pod::property!(
            FormatProperties::VideoFormat,
            Choice,
            Enum,
            Id,
            VideoFormat::BGRx,
            VideoFormat::BGRx,
            VideoFormat::BGRA,
            VideoFormat::RGBx,
            VideoFormat::RGBA
        ),
        pod::property!(
            FormatProperties::VideoSize,
            Choice,
            Range,
            Rectangle,
            Rectangle {
                width: 1280,
                height: 800
            },
            Rectangle {
                width: 1,
                height: 1
            },
            Rectangle {
                width: 16384,
                height: 16384
            }
        ),
        pod::property!(
            FormatProperties::VideoFramerate,
            Choice,
            Range,
            Fraction,
            Fraction { num: 30, denom: 1 },
            Fraction { num: 0, denom: 1 },
            Fraction {
                num: 1000,
                denom: 1
            }
        ),
    );
    PodSerializer::serialize(Cursor::new(Vec::new()), &pod::Value::Object(obj))
        .map(|(c, _)| c.into_inner())
        .map_err(|e| format!("{e:?}"))
}

/// A frame's bytes as RGBA, whatever the row padding.
fn to_picture(
    bytes: &[u8],
    format: VideoFormat,
    size: Rectangle,
    stride: usize,
) -> Result<Picture, String> {
    let (w, h) = (size.width as usize, size.height as usize);
    if w == 0 || h == 0 {
        return Err("the stream gave no frame size".into());
    }
    let stride = if stride == 0 { w * 4 } else { stride };
    let swap = match format {
        VideoFormat::BGRx | VideoFormat::BGRA => true,
        VideoFormat::RGBx | VideoFormat::RGBA => false,
        other => {
            return Err(format!(
                "the stream gave {other:?} frames, which Zeta does not read"
            ))
        }
    };
    let mut rgba = Vec::with_capacity(w * h * 4);
    for row in 0..h {
        let line = bytes
            .get(row * stride..row * stride + w * 4)
            .ok_or_else(|| format!("the frame is short: row {row} of {h}"))?;
        for px in line.chunks_exact(4) {
            if swap {
                rgba.extend_from_slice(&[px[2], px[1], px[0], 255]);
            } else {
                rgba.extend_from_slice(&[px[0], px[1], px[2], 255]);
            }
        }
    }
    Ok(Picture {
        rgba,
        width: size.width,
        height: size.height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_become_rgba_through_their_stride() {
        let size = Rectangle {
            width: 1,
            height: 2,
        };
        let bytes = [1, 2, 3, 0, 9, 9, 9, 9, 4, 5, 6, 0, 9, 9, 9, 9];
        let p = to_picture(&bytes, VideoFormat::BGRx, size, 8).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.rgba, vec![3, 2, 1, 255, 6, 5, 4, 255]);
        assert!(
            to_picture(&bytes[..8], VideoFormat::RGBx, size, 8).is_err(),
            "short"
        );
        assert!(to_picture(&bytes, VideoFormat::I420, size, 8).is_err());
        assert!(format_params().is_ok_and(|p| Pod::from_bytes(&p).is_some()));
    }
}
