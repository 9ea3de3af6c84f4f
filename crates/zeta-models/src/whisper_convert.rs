//! faster-whisper (CTranslate2) → whisper.cpp ggml, so `zeta models import FOLDER` takes
//! the models that package registries carry. The ggml layout is the one whisper.cpp's
//! `convert-pt-to-ggml.py` writes: magic, eleven i32 hyper-parameters, the mel filters,
//! the vocabulary up to `<|endoftext|>` (whisper.cpp adds the special tokens), then each
//! tensor (dims innermost first; 1-D tensors, the conv biases as [n, 1] and the positional
//! embeddings in f32, the rest in f16). CTranslate2 fuses attention projections: self-
//! attention Q|K|V, cross-attention K|V; they are split back (Whisper's key projection has
//! no bias).

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;

use crate::ct2::{self, Model};
use crate::{io, mel, ModelError};

const GGML_MAGIC: u32 = 0x6767_6d6c;
/// More mel bands than any Whisper has: a shape beyond it is a damaged file.
const MAX_MELS: usize = 512;

/// Converts the faster-whisper folder `dir` (model.bin, vocabulary.txt or .json) to `out`.
pub fn convert(dir: &Path, out: &Path) -> Result<(), ModelError> {
    let not_model = |reason: String| ModelError::NotAModel {
        path: dir.to_path_buf(),
        reason,
    };
    let model = ct2::read(&dir.join("model.bin"))?;
    if model.name != "WhisperSpec" {
        return Err(not_model(format!(
            "a CTranslate2 {} model, not Whisper",
            model.name
        )));
    }
    let vocabulary = read_vocabulary(dir)?;
    let bytes = ggml_bytes(&model, &vocabulary).map_err(not_model)?;
    let mut file = std::fs::File::create(out).map_err(io("create", out))?;
    file.write_all(&bytes).map_err(io("write", out))?;
    file.sync_all().map_err(io("write", out))?;
    Ok(())
}

fn read_vocabulary(dir: &Path) -> Result<Vec<String>, ModelError> {
    let txt = dir.join("vocabulary.txt");
    if txt.is_file() {
        let text = std::fs::read_to_string(&txt).map_err(io("read", &txt))?;
        return Ok(text.lines().map(str::to_string).collect());
    }
    let json = dir.join("vocabulary.json");
    let text = std::fs::read_to_string(&json).map_err(io("read", &json))?;
    serde_json::from_str(&text).map_err(|e| ModelError::NotAModel {
        path: json,
        reason: format!("not a JSON list of tokens: {e}"),
    })
}

struct Out {
    bytes: Vec<u8>,
}

impl Out {
    fn i32(&mut self, v: usize) {
        self.bytes.extend((v as i32).to_le_bytes());
    }
    /// One tensor; `dims` outermost first, as CTranslate2 and PyTorch give them.
    fn tensor(&mut self, name: &str, dims: &[usize], values: &[f32], f32_kept: bool) {
        let f16 = dims.len() >= 2 && !f32_kept;
        self.i32(dims.len());
        self.i32(name.len());
        self.i32(usize::from(f16));
        for d in dims.iter().rev() {
            self.i32(*d);
        }
        self.bytes.extend(name.as_bytes());
        for v in values {
            if f16 {
                self.bytes.extend(half::f16::from_f32(*v).to_le_bytes());
            } else {
                self.bytes.extend(v.to_le_bytes());
            }
        }
    }
}

fn floats(model: &Model, name: &str) -> Result<(Vec<usize>, Vec<f32>), String> {
    let v = model.get(name)?;
    let values = v.to_f32().ok_or_else(|| {
        format!(
            "{name} is quantised ({:?}); import a float16 or float32 model",
            v.dtype
        )
    })?;
    let expected = v.dims.iter().try_fold(1usize, |n, d| n.checked_mul(*d));
    if v.dims.is_empty() || expected != Some(values.len()) {
        return Err(format!(
            "{name} has shape {:?} but holds {} values",
            v.dims,
            values.len()
        ));
    }
    Ok((v.dims.clone(), values))
}

fn layers(model: &Model, side: &str) -> usize {
    let prefix = format!("{side}/layer_");
    model
        .variables
        .keys()
        .filter_map(|k| {
            k.strip_prefix(&prefix)?
                .split('/')
                .next()?
                .parse::<usize>()
                .ok()
        })
        .collect::<BTreeSet<_>>()
        .len()
}

fn heads(model: &Model, side: &str, state: usize) -> Result<usize, String> {
    match model
        .get(&format!("{side}/num_heads"))
        .ok()
        .and_then(|v| v.scalar())
    {
        Some(n) if n > 0 => Ok(n as usize),
        // Every Whisper size has 64-wide heads.
        _ => Ok(state / 64),
    }
}

pub(crate) fn ggml_bytes(model: &Model, vocabulary: &[String]) -> Result<Vec<u8>, String> {
    // Shapes only: the values are converted once, when each tensor is written.
    let dims = |name: &str| model.get(name).map(|v| v.dims.clone());
    let emb_dims = dims("decoder/embeddings/weight")?;
    let enc_pos = dims("encoder/position_encodings/encodings")?;
    let dec_pos = dims("decoder/position_encodings/encodings")?;
    let conv1 = dims("encoder/conv1/weight")?;
    let [n_vocab, n_text_state] = emb_dims[..] else {
        return Err(format!("decoder embeddings have shape {emb_dims:?}"));
    };
    let ([n_audio_ctx, n_audio_state], [n_text_ctx, _], [_, n_mels, _]) =
        (&enc_pos[..], &dec_pos[..], &conv1[..])
    else {
        return Err(format!(
            "unexpected shapes: positions {enc_pos:?} / {dec_pos:?}, conv1 {conv1:?}"
        ));
    };
    let (n_audio_ctx, n_audio_state, n_text_ctx, n_mels) =
        (*n_audio_ctx, *n_audio_state, *n_text_ctx, *n_mels);
    // Whisper has 80 or 128 mel bands; the filterbank is computed for this many.
    if !(1..=MAX_MELS).contains(&n_mels) {
        return Err(format!(
            "conv1 expects {n_mels} mel bands (Whisper uses 80 or 128)"
        ));
    }
    let (n_audio_layer, n_text_layer) = (layers(model, "encoder"), layers(model, "decoder"));
    let eot = vocabulary
        .iter()
        .position(|t| t == "<|endoftext|>")
        .ok_or("the vocabulary has no <|endoftext|>")?;

    let mut out = Out {
        bytes: Vec::with_capacity(200 << 20),
    };
    out.bytes.extend(GGML_MAGIC.to_le_bytes());
    for v in [
        n_vocab,
        n_audio_ctx,
        n_audio_state,
        heads(model, "encoder", n_audio_state)?,
        n_audio_layer,
        n_text_ctx,
        n_text_state,
        heads(model, "decoder", n_text_state)?,
        n_text_layer,
        n_mels,
        1, // f16
    ] {
        out.i32(v);
    }
    out.i32(n_mels);
    out.i32(mel::N_FFT_BINS);
    for w in mel::filters(n_mels) {
        out.bytes.extend(w.to_le_bytes());
    }
    out.i32(eot);
    let decode = byte_decoder();
    for token in &vocabulary[..eot] {
        let bytes: Vec<u8> = token
            .chars()
            .map(|c| decode.get(&c).copied())
            .collect::<Option<_>>()
            .unwrap_or_else(|| token.as_bytes().to_vec());
        out.i32(bytes.len());
        out.bytes.extend(bytes);
    }

    let put = |out: &mut Out, name: &str, from: &str, f32_kept: bool| -> Result<(), String> {
        let (dims, values) = floats(model, from)?;
        out.tensor(name, &dims, &values, f32_kept);
        Ok(())
    };
    for conv in ["conv1", "conv2"] {
        put(
            &mut out,
            &format!("encoder.{conv}.weight"),
            &format!("encoder/{conv}/weight"),
            false,
        )?;
        let (dims, values) = floats(model, &format!("encoder/{conv}/bias"))?;
        let [n] = dims[..] else {
            return Err(format!("encoder/{conv}/bias has shape {dims:?}, not [n]"));
        };
        out.tensor(&format!("encoder.{conv}.bias"), &[n, 1], &values, true);
    }
    put(
        &mut out,
        "encoder.positional_embedding",
        "encoder/position_encodings/encodings",
        true,
    )?;
    for i in 0..n_audio_layer {
        let (c, w) = (format!("encoder/layer_{i}"), format!("encoder.blocks.{i}"));
        self_attention(&mut out, model, &c, &w)?;
        ffn(&mut out, model, &c, &w)?;
    }
    put(
        &mut out,
        "encoder.ln_post.weight",
        "encoder/layer_norm/gamma",
        false,
    )?;
    put(
        &mut out,
        "encoder.ln_post.bias",
        "encoder/layer_norm/beta",
        false,
    )?;
    put(
        &mut out,
        "decoder.token_embedding.weight",
        "decoder/embeddings/weight",
        false,
    )?;
    put(
        &mut out,
        "decoder.positional_embedding",
        "decoder/position_encodings/encodings",
        true,
    )?;
    for i in 0..n_text_layer {
        let (c, w) = (format!("decoder/layer_{i}"), format!("decoder.blocks.{i}"));
        self_attention(&mut out, model, &c, &w)?;
        cross_attention(&mut out, model, &c, &w)?;
        ffn(&mut out, model, &c, &w)?;
    }
    put(
        &mut out,
        "decoder.ln.weight",
        "decoder/layer_norm/gamma",
        false,
    )?;
    put(
        &mut out,
        "decoder.ln.bias",
        "decoder/layer_norm/beta",
        false,
    )?;
    Ok(out.bytes)
}

/// Rows `part * n .. (part + 1) * n` of a fused [k·n, cols] matrix (or a fused bias).
/// `dims` and `values` agree (see `floats`); a first dimension that does not split into
/// `parts` is an error.
fn rows(
    dims: &[usize],
    values: &[f32],
    part: usize,
    parts: usize,
) -> Result<(Vec<usize>, Vec<f32>), String> {
    let Some((&first, rest)) = dims.split_first().filter(|(f, _)| *f % parts == 0) else {
        return Err(format!(
            "a fused projection of shape {dims:?} does not split into {parts}"
        ));
    };
    let n = first / parts;
    let size = n * rest.iter().product::<usize>();
    let taken = values
        .get(part * size..(part + 1) * size)
        .ok_or_else(|| format!("a fused projection of shape {dims:?} is short"))?;
    let mut d = dims.to_vec();
    d[0] = n;
    Ok((d, taken.to_vec()))
}

fn layer_norm(out: &mut Out, model: &Model, from: &str, to: &str) -> Result<(), String> {
    for (c, w) in [("gamma", "weight"), ("beta", "bias")] {
        let (dims, values) = floats(model, &format!("{from}/layer_norm/{c}"))?;
        out.tensor(&format!("{to}.{w}"), &dims, &values, false);
    }
    Ok(())
}

fn linear(out: &mut Out, model: &Model, from: &str, to: &str) -> Result<(), String> {
    for p in ["weight", "bias"] {
        let (dims, values) = floats(model, &format!("{from}/{p}"))?;
        out.tensor(&format!("{to}.{p}"), &dims, &values, false);
    }
    Ok(())
}

fn self_attention(out: &mut Out, model: &Model, c: &str, w: &str) -> Result<(), String> {
    layer_norm(
        out,
        model,
        &format!("{c}/self_attention"),
        &format!("{w}.attn_ln"),
    )?;
    let (dims, weight) = floats(model, &format!("{c}/self_attention/linear_0/weight"))?;
    let (bdims, bias) = floats(model, &format!("{c}/self_attention/linear_0/bias"))?;
    for (part, name) in ["query", "key", "value"].iter().enumerate() {
        let (d, v) = rows(&dims, &weight, part, 3)?;
        out.tensor(&format!("{w}.attn.{name}.weight"), &d, &v, false);
        if *name != "key" {
            let (d, v) = rows(&bdims, &bias, part, 3)?;
            out.tensor(&format!("{w}.attn.{name}.bias"), &d, &v, false);
        }
    }
    linear(
        out,
        model,
        &format!("{c}/self_attention/linear_1"),
        &format!("{w}.attn.out"),
    )
}

fn cross_attention(out: &mut Out, model: &Model, c: &str, w: &str) -> Result<(), String> {
    layer_norm(
        out,
        model,
        &format!("{c}/attention"),
        &format!("{w}.cross_attn_ln"),
    )?;
    linear(
        out,
        model,
        &format!("{c}/attention/linear_0"),
        &format!("{w}.cross_attn.query"),
    )?;
    let (dims, weight) = floats(model, &format!("{c}/attention/linear_1/weight"))?;
    let (bdims, bias) = floats(model, &format!("{c}/attention/linear_1/bias"))?;
    let (d, v) = rows(&dims, &weight, 0, 2)?;
    out.tensor(&format!("{w}.cross_attn.key.weight"), &d, &v, false);
    let (d, v) = rows(&dims, &weight, 1, 2)?;
    out.tensor(&format!("{w}.cross_attn.value.weight"), &d, &v, false);
    let (d, v) = rows(&bdims, &bias, 1, 2)?;
    out.tensor(&format!("{w}.cross_attn.value.bias"), &d, &v, false);
    linear(
        out,
        model,
        &format!("{c}/attention/linear_2"),
        &format!("{w}.cross_attn.out"),
    )
}

fn ffn(out: &mut Out, model: &Model, c: &str, w: &str) -> Result<(), String> {
    layer_norm(out, model, &format!("{c}/ffn"), &format!("{w}.mlp_ln"))?;
    linear(
        out,
        model,
        &format!("{c}/ffn/linear_0"),
        &format!("{w}.mlp.0"),
    )?;
    linear(
        out,
        model,
        &format!("{c}/ffn/linear_1"),
        &format!("{w}.mlp.2"),
    )
}

/// GPT-2's byte-level alphabet, reversed: the printable stand-in character → its byte.
fn byte_decoder() -> std::collections::HashMap<char, u8> {
    let mut printable: Vec<u32> = (u32::from('!')..=u32::from('~')).collect();
    printable.extend(u32::from('¡')..=u32::from('¬'));
    printable.extend(u32::from('®')..=u32::from('ÿ'));
    let mut map = std::collections::HashMap::new();
    let mut extra = 0;
    for b in 0u32..256 {
        let c = if printable.contains(&b) {
            b
        } else {
            extra += 1;
            255 + extra
        };
        if let Some(c) = char::from_u32(c) {
            map.insert(c, b as u8);
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt2_bytes_decode_back() {
        let d = byte_decoder();
        assert_eq!(d.len(), 256);
        assert_eq!(d[&'Ġ'], b' ');
        assert_eq!(d[&'Ċ'], b'\n');
        assert_eq!(d[&'a'], b'a');
    }

    #[test]
    fn fused_rows_split_in_order() {
        let values: Vec<f32> = (0..12).map(|v| v as f32).collect();
        let split = rows(&[6, 2], &values, 1, 3);
        assert_eq!(split, Ok((vec![2, 2], vec![4.0, 5.0, 6.0, 7.0])));
        let split = rows(&[4], &[1.0, 2.0, 3.0, 4.0], 1, 2);
        assert_eq!(split, Ok((vec![2], vec![3.0, 4.0])));
        assert!(rows(&[5, 2], &values, 0, 3).is_err());
        assert!(rows(&[], &values, 0, 3).is_err());
        assert!(rows(&[6, 4], &values, 2, 3).is_err());
    }

    /// A tiny but complete Whisper of the shapes the converter expects (state 4, one
    /// layer each side, 80 mel bands), in f32.
    fn tiny_model() -> Model {
        use crate::ct2::{DType, Variable};
        let (s, f, v, ctx, mels) = (4, 8, 6, 3, 80);
        let mut shapes: Vec<(String, Vec<usize>)> = vec![
            ("decoder/embeddings/weight".into(), vec![v, s]),
            ("encoder/position_encodings/encodings".into(), vec![ctx, s]),
            ("decoder/position_encodings/encodings".into(), vec![ctx, s]),
            ("encoder/conv1/weight".into(), vec![s, mels, 3]),
            ("encoder/conv1/bias".into(), vec![s]),
            ("encoder/conv2/weight".into(), vec![s, s, 3]),
            ("encoder/conv2/bias".into(), vec![s]),
        ];
        let norm = |shapes: &mut Vec<(String, Vec<usize>)>, at: &str| {
            for p in ["gamma", "beta"] {
                shapes.push((format!("{at}/layer_norm/{p}"), vec![s]));
            }
        };
        let linear = |shapes: &mut Vec<(String, Vec<usize>)>, at: &str, out: usize, inp: usize| {
            shapes.push((format!("{at}/weight"), vec![out, inp]));
            shapes.push((format!("{at}/bias"), vec![out]));
        };
        for side in ["encoder", "decoder"] {
            let layer = format!("{side}/layer_0");
            norm(&mut shapes, &format!("{layer}/self_attention"));
            linear(
                &mut shapes,
                &format!("{layer}/self_attention/linear_0"),
                3 * s,
                s,
            );
            linear(
                &mut shapes,
                &format!("{layer}/self_attention/linear_1"),
                s,
                s,
            );
            norm(&mut shapes, &format!("{layer}/ffn"));
            linear(&mut shapes, &format!("{layer}/ffn/linear_0"), f, s);
            linear(&mut shapes, &format!("{layer}/ffn/linear_1"), s, f);
            norm(&mut shapes, side);
        }
        norm(&mut shapes, "decoder/layer_0/attention");
        linear(&mut shapes, "decoder/layer_0/attention/linear_0", s, s);
        linear(&mut shapes, "decoder/layer_0/attention/linear_1", 2 * s, s);
        linear(&mut shapes, "decoder/layer_0/attention/linear_2", s, s);
        let variables = shapes
            .into_iter()
            .map(|(name, dims)| {
                let n: usize = dims.iter().product();
                let data = (0..n).flat_map(|i| (i as f32).to_le_bytes()).collect();
                (
                    name,
                    Variable {
                        dims,
                        dtype: DType::F32,
                        data,
                    },
                )
            })
            .collect();
        Model {
            name: "WhisperSpec".into(),
            variables,
        }
    }

    fn vocabulary() -> Vec<String> {
        ["a", "b", "<|endoftext|>"].map(String::from).to_vec()
    }

    /// Every variable of a model that converts, damaged four ways (no shape, half its
    /// data, one row too many, quantised), is an error that names what is wrong: never a
    /// panic, never a file.
    #[test]
    fn damaged_models_are_errors_not_panics() {
        assert!(ggml_bytes(&tiny_model(), &vocabulary()).is_ok());
        let names: Vec<String> = tiny_model().variables.keys().cloned().collect();
        let mut cases = 0;
        for name in &names {
            for damage in 0..4 {
                let mut model = tiny_model();
                let Some(v) = model.variables.get_mut(name) else {
                    continue;
                };
                match damage {
                    0 => v.dims.clear(),
                    1 => v.data.truncate(v.data.len() / 2),
                    2 => v.dims[0] += 1,
                    _ => v.dtype = crate::ct2::DType::I8,
                }
                let result = std::panic::catch_unwind(|| ggml_bytes(&model, &vocabulary()));
                match result {
                    Ok(Err(reason)) => assert!(!reason.is_empty()),
                    Ok(Ok(_)) => panic!("{name} damaged ({damage}) still converted"),
                    Err(_) => panic!("{name} damaged ({damage}) panicked"),
                }
                cases += 1;
            }
        }
        assert!(cases >= 4 * 40, "{cases}");
        let mut model = tiny_model();
        if let Some(v) = model.variables.get_mut("encoder/conv1/weight") {
            v.dims = vec![4, usize::MAX / 8, 3];
        }
        assert!(ggml_bytes(&model, &vocabulary()).is_err());
    }
}
