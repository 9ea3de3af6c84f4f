//! Reading a CTranslate2 `model.bin` (binary version 6, as faster-whisper ships it): a
//! header, then named variables (rank, dims, dtype, raw bytes), then an alias table.

use std::collections::HashMap;
use std::path::Path;

use crate::{io, ModelError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DType {
    F32,
    I8,
    I16,
    I32,
    F16,
    BF16,
}

#[derive(Debug, Clone)]
pub struct Variable {
    pub dims: Vec<usize>,
    pub dtype: DType,
    pub data: Vec<u8>,
}

impl Variable {
    /// The values as f32 (float types only).
    pub fn to_f32(&self) -> Option<Vec<f32>> {
        match self.dtype {
            DType::F32 => Some(
                self.data
                    .chunks_exact(4)
                    .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect(),
            ),
            DType::F16 => Some(
                self.data
                    .chunks_exact(2)
                    .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                    .collect(),
            ),
            DType::BF16 => Some(
                self.data
                    .chunks_exact(2)
                    .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                    .collect(),
            ),
            _ => None,
        }
    }

    /// A scalar integer (e.g. `encoder/num_heads`).
    pub fn scalar(&self) -> Option<i64> {
        let b = &self.data;
        match self.dtype {
            DType::I8 => b.first().map(|v| *v as i8 as i64),
            DType::I16 if b.len() >= 2 => Some(i16::from_le_bytes([b[0], b[1]]) as i64),
            DType::I32 if b.len() >= 4 => Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64),
            _ => None,
        }
    }
}

pub struct Model {
    pub name: String,
    pub variables: HashMap<String, Variable>,
}

impl Model {
    pub fn get(&self, name: &str) -> Result<&Variable, String> {
        self.variables
            .get(name)
            .ok_or_else(|| format!("the model has no variable {name}"))
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|e| *e <= self.bytes.len());
        let Some(end) = end else {
            return Err(format!(
                "the file ends at byte {} inside a record",
                self.bytes.len()
            ));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn string(&mut self) -> Result<String, String> {
        let n = self.u16()? as usize;
        let b = self.take(n)?;
        Ok(String::from_utf8_lossy(b.strip_suffix(&[0]).unwrap_or(b)).into_owned())
    }
}

pub fn read(path: &Path) -> Result<Model, ModelError> {
    let bytes = std::fs::read(path).map_err(io("read", path))?;
    parse(&bytes).map_err(|reason| ModelError::NotAModel {
        path: path.to_path_buf(),
        reason: format!("not a CTranslate2 model: {reason}"),
    })
}

pub fn parse(bytes: &[u8]) -> Result<Model, String> {
    let mut r = Reader { bytes, at: 0 };
    let version = r.u32()?;
    if version != 6 {
        return Err(format!("binary version {version} (only 6 is read)"));
    }
    let name = r.string()?;
    let _revision = r.u32()?;
    let count = r.u32()?;
    let mut variables = HashMap::new();
    for _ in 0..count {
        let name = r.string()?;
        let rank = r.u8()? as usize;
        let mut dims = Vec::with_capacity(rank);
        for _ in 0..rank {
            dims.push(r.u32()? as usize);
        }
        let dtype = match r.u8()? {
            0 => DType::F32,
            1 => DType::I8,
            2 => DType::I16,
            3 => DType::I32,
            4 => DType::F16,
            5 => DType::BF16,
            other => return Err(format!("{name}: unknown dtype {other}")),
        };
        let n = r.u32()? as usize;
        let data = r.take(n)?.to_vec();
        variables.insert(name, Variable { dims, dtype, data });
    }
    if r.at < bytes.len() {
        let aliases = r.u32()?;
        for _ in 0..aliases {
            let alias = r.string()?;
            let target = r.string()?;
            if let Some(v) = variables.get(&target).cloned() {
                variables.insert(alias, v);
            }
        }
    }
    Ok(Model { name, variables })
}
