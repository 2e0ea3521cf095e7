//! clang's JSON AST read in document order. `-ast-dump=json` writes a
//! source location's file and line only where they change from the
//! location written before it, so locations can only be resolved by
//! walking the dump in the order it was written: the reader keeps each
//! object's keys in that order ([`Json`]), and [`Node::tree`] resolves
//! every node's location (the expansion location of a macro's tokens,
//! where clang's own diagnostics point) while it builds the tree.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::rc::Rc;

/// A JSON value whose objects keep their keys in document order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The value of `key` in an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string this value is.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer this value is.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Int(i) => Some(*i),
            _ => None,
        }
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(i64::try_from(v).map_or(Json::Float(v as f64), Json::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Json::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut entries = Vec::new();
        while let Some((k, v)) = map.next_entry::<String, Json>()? {
            entries.push((k, v));
        }
        Ok(Json::Object(entries))
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

/// Parses a JSON document.
pub fn parse(text: &str) -> Result<Json, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    // clang nests as deep as the source does.
    de.disable_recursion_limit();
    let v = Json::deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}

/// A resolved source location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub file: Rc<str>,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// One node of clang's AST: its kind, id, resolved locations, the other
/// attributes as written and its children (`inner`; an empty object of
/// the dump, an absent child such as a `for` without a condition, is a
/// node of kind `""`).
#[derive(Clone, Debug)]
pub struct Node {
    pub kind: String,
    pub id: String,
    /// The node's location (`loc`), else the start of its range.
    pub loc: Option<Loc>,
    pub attrs: Vec<(String, Json)>,
    pub inner: Vec<Node>,
}

/// The last file and line written, as clang's dumper tracks them.
#[derive(Default)]
struct Cursor {
    file: Option<Rc<str>>,
    line: u32,
}

impl Cursor {
    /// Reads a location as written (`{offset, file?, line?, col, ...}`,
    /// or `{spellingLoc, expansionLoc}`); its expansion location.
    fn location(&mut self, v: &Json) -> Option<Loc> {
        let Json::Object(entries) = v else {
            return None;
        };
        if entries.iter().any(|(k, _)| k == "spellingLoc") {
            let mut expansion = None;
            for (k, v) in entries {
                let l = self.location(v);
                if k == "expansionLoc" {
                    expansion = l;
                }
            }
            return expansion;
        }
        let mut col = None;
        for (k, v) in entries {
            match k.as_str() {
                "file" => {
                    if let Some(f) = v.as_str() {
                        if self.file.as_deref() != Some(f) {
                            self.file = Some(Rc::from(f));
                        }
                    }
                }
                "line" => self.line = v.as_i64().unwrap_or(0) as u32,
                "col" => col = v.as_i64(),
                _ => {}
            }
        }
        Some(Loc {
            file: self.file.clone()?,
            line: self.line,
            col: col? as u32,
        })
    }

    /// Walks a value that holds no nodes, for the locations in it.
    fn skip(&mut self, v: &Json) {
        match v {
            Json::Object(entries) => {
                if entries
                    .iter()
                    .any(|(k, _)| k == "offset" || k == "spellingLoc")
                {
                    self.location(v);
                    return;
                }
                for (_, v) in entries {
                    self.skip(v);
                }
            }
            Json::Array(items) => items.iter().for_each(|v| self.skip(v)),
            _ => {}
        }
    }

    fn node(&mut self, v: Json) -> Node {
        let Json::Object(entries) = v else {
            return Node::empty();
        };
        let mut node = Node::empty();
        let mut begin = None;
        for (k, v) in entries {
            match k.as_str() {
                "kind" => node.kind = v.as_str().unwrap_or_default().to_string(),
                "id" => node.id = v.as_str().unwrap_or_default().to_string(),
                "loc" => node.loc = self.location(&v),
                "range" => {
                    if let Json::Object(ends) = &v {
                        for (end, l) in ends {
                            let l = self.location(l);
                            if end == "begin" {
                                begin = l;
                            }
                        }
                    }
                }
                "inner" => {
                    if let Json::Array(items) = v {
                        node.inner = items.into_iter().map(|c| self.node(c)).collect();
                    }
                }
                // An initializer list with a filler (`{1, 2}` for four
                // elements) lists the filler, then its elements, here.
                "array_filler" => {
                    if let Json::Array(items) = v {
                        let mut items = items.into_iter().map(|c| self.node(c));
                        items.next();
                        node.inner = items.collect();
                    }
                }
                _ => {
                    self.skip(&v);
                    node.attrs.push((k, v));
                }
            }
        }
        if node.loc.is_none() {
            node.loc = begin;
        }
        node
    }
}

impl Node {
    fn empty() -> Node {
        Node {
            kind: String::new(),
            id: String::new(),
            loc: None,
            attrs: Vec::new(),
            inner: Vec::new(),
        }
    }

    /// The tree of a whole dump, every location resolved.
    pub fn tree(dump: Json) -> Node {
        Cursor::default().node(dump)
    }

    /// An attribute.
    pub fn attr(&self, key: &str) -> Option<&Json> {
        self.attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A string attribute.
    pub fn str(&self, key: &str) -> Option<&str> {
        self.attr(key).and_then(Json::as_str)
    }

    /// Whether a boolean attribute is present and true.
    pub fn flag(&self, key: &str) -> bool {
        matches!(self.attr(key), Some(Json::Bool(true)))
    }

    /// The node's `name`.
    pub fn name(&self) -> &str {
        self.str("name").unwrap_or_default()
    }

    /// The spelling of the node's type: desugared at the top where
    /// clang gives it so (`{"qualType": "DATA_TYPE", "desugaredQualType":
    /// "double"}`), typedefs inside it left as written.
    pub fn type_spelling(&self) -> Option<&str> {
        type_of(self.attr("type")?)
    }

    /// Whether the node is an absent child (`{}` in the dump).
    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }
}

/// The spelling of a `{"qualType", "desugaredQualType"?}` type object.
pub fn type_of(t: &Json) -> Option<&str> {
    t.get("desugaredQualType")
        .or_else(|| t.get("qualType"))
        .and_then(Json::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_carry_the_file_and_line_written_before_them() {
        let dump = r#"{"id":"0x1","kind":"TranslationUnitDecl","inner":[
            {"id":"0x2","kind":"VarDecl","loc":{"offset":4,"file":"a.c","line":3,"col":5,"tokLen":1},
             "range":{"begin":{"offset":0,"col":1,"tokLen":3},"end":{"offset":4,"col":5,"tokLen":1}},"name":"x"},
            {"id":"0x3","kind":"VarDecl","loc":{"offset":20,"line":4,"col":7,"tokLen":1},"name":"y"},
            {"id":"0x4","kind":"VarDecl","loc":{"spellingLoc":{"offset":9,"file":"m.h","line":1,"col":9,"tokLen":1},
             "expansionLoc":{"offset":40,"file":"a.c","line":6,"col":2,"tokLen":1}},"name":"z",
             "type":{"qualType":"DT","desugaredQualType":"double"}},
            {"id":"0x5","kind":"VarDecl","loc":{"offset":50,"col":3,"tokLen":1},"name":"w"},
            {}]}"#;
        let tree = Node::tree(parse(dump).unwrap());
        let locs: Vec<String> = tree.inner[..4]
            .iter()
            .map(|n| n.loc.as_ref().unwrap().to_string())
            .collect();
        assert_eq!(locs, ["a.c:3:5", "a.c:4:7", "a.c:6:2", "a.c:6:3"]);
        assert_eq!(tree.inner[2].type_spelling(), Some("double"));
        assert!(tree.inner[4].is_empty());
        // The elements of an initializer list with a filler.
        let list = r#"{"id":"0x9","kind":"InitListExpr","array_filler":[
            {"kind":"ImplicitValueInitExpr"},{"id":"0xa","kind":"IntegerLiteral","value":"1"}]}"#;
        let list = Node::tree(parse(list).unwrap());
        assert_eq!(list.inner.len(), 1);
        assert_eq!(list.inner[0].str("value"), Some("1"));
        // Keys stay in document order.
        let Json::Object(entries) = parse(r#"{"b":1,"a":2}"#).unwrap() else {
            panic!()
        };
        assert_eq!(entries[0].0, "b");
    }
}
