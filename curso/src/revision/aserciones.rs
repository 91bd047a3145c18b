//! Las aserciones de las pruebas de los ejercicios llevan mensaje.
//!
//! `cargo curso verifica` enseña primero, para cada prueba que falla, el
//! mensaje de la aserción: las palabras del curso. Un `assert_eq!(a, b)`
//! sin mensaje deja a quien aprende con «los dos valores no coinciden» y
//! dos números. Esta revisión busca en `exercises/*/tests/` cada `assert!`,
//! `assert_eq!` y `assert_ne!` y cuenta sus argumentos de nivel superior
//! (las comas dentro de paréntesis, corchetes, llaves, turbofish `::<>`,
//! cadenas, caracteres y comentarios no cuentan). Sin mensaje, o con uno
//! vacío (`""`), es un hallazgo con su archivo y su línea. Los
//! `debug_assert*` no cuentan: no son de las pruebas.
//!
//! Un analizador de Rust de verdad (`syn` con `full`) costaría compilarlo
//! aparte: aquí basta con separar los tokens que pueden esconder una coma.

use std::fs;
use std::path::Path;

use crate::error::{Hallazgo, Tipo};

/// Una aserción sin mensaje: su línea (desde 1) y su macro (`assert_eq`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SinMensaje {
    pub linea: usize,
    pub macro_: &'static str,
}

/// Las macros vigiladas y cuántos argumentos tienen sin el mensaje.
const MACROS: &[(&str, usize)] = &[("assert", 1), ("assert_eq", 2), ("assert_ne", 2)];

/// Las aserciones de `codigo` (un archivo de Rust) que no llevan mensaje.
pub fn sin_mensaje(codigo: &str) -> Vec<SinMensaje> {
    let mut lector = Lector { c: codigo.chars().collect(), i: 0, linea: 1 };
    let mut encontradas = Vec::new();
    while let Some(token) = lector.siguiente() {
        let Token::Identificador(nombre, linea) = token else { continue };
        let Some(&(macro_, sin_mensaje)) = MACROS.iter().find(|(m, _)| *m == nombre) else { continue };
        let inicio = lector.i;
        if lector.siguiente() != Some(Token::Otro('!')) {
            lector.i = inicio;
            continue;
        }
        let Some(argumentos) = lector.argumentos() else { continue };
        let con_mensaje = argumentos.len() > sin_mensaje && argumentos[sin_mensaje] != "\"\"";
        if !con_mensaje {
            encontradas.push(SinMensaje { linea, macro_ });
        }
    }
    encontradas
}

/// Revisa cada `exercises/*/tests/**/*.rs` de `raiz`. Devuelve un hallazgo
/// por aserción sin mensaje, con su archivo (relativo a la raíz) y su línea.
pub fn comprobar_pruebas(raiz: &Path) -> Vec<Hallazgo> {
    let mut archivos: Vec<_> = walkdir::WalkDir::new(raiz.join("exercises"))
        .min_depth(3)
        .into_iter()
        .flatten()
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .filter(|p| p.strip_prefix(raiz).is_ok_and(|r| r.iter().nth(2).is_some_and(|c| c == "tests")))
        .collect();
    archivos.sort();
    let mut hallazgos = Vec::new();
    for archivo in archivos {
        let relativa = archivo.strip_prefix(raiz).unwrap_or(&archivo).to_path_buf();
        let Ok(texto) = fs::read_to_string(&archivo) else {
            let mensaje = format!("no puedo leer {}", relativa.display());
            hallazgos.push(Hallazgo::en_archivo(relativa, None, Tipo::Ilegible, mensaje));
            continue;
        };
        for a in sin_mensaje(&texto) {
            let mensaje = format!(
                "{}:{}: {}! sin mensaje: di a quien aprende qué se esperaba, qué hizo su código y por qué importa",
                relativa.display(),
                a.linea,
                a.macro_
            );
            hallazgos.push(Hallazgo::en_archivo(&relativa, Some(a.linea), Tipo::AsercionSinMensaje, mensaje));
        }
    }
    hallazgos
}

#[derive(Debug, PartialEq, Eq)]
enum Token {
    /// Un identificador (o palabra clave) y su línea.
    Identificador(String, usize),
    /// Un literal (cadena, carácter o número), con su texto.
    Literal(String),
    /// Cualquier otro carácter suelto (puntuación).
    Otro(char),
}

/// Lee un archivo de Rust token a token, lo justo para no confundir una
/// coma de una cadena o de un comentario con una de la macro.
struct Lector {
    c: Vec<char>,
    i: usize,
    linea: usize,
}

impl Lector {
    fn ver(&self, n: usize) -> Option<char> {
        self.c.get(self.i + n).copied()
    }

    fn avanza(&mut self) -> Option<char> {
        let c = self.c.get(self.i).copied()?;
        self.i += 1;
        if c == '\n' {
            self.linea += 1;
        }
        Some(c)
    }

    /// El texto desde `inicio` hasta donde va el lector.
    fn desde(&self, inicio: usize) -> String {
        self.c[inicio..self.i].iter().collect()
    }

    /// El siguiente token, saltando espacios y comentarios.
    fn siguiente(&mut self) -> Option<Token> {
        loop {
            let c = self.ver(0)?;
            if c.is_whitespace() {
                self.avanza();
            } else if c == '/' && self.ver(1) == Some('/') {
                while self.ver(0).is_some_and(|c| c != '\n') {
                    self.avanza();
                }
            } else if c == '/' && self.ver(1) == Some('*') {
                self.comentario_de_bloque();
            } else {
                break;
            }
        }
        let inicio = self.i;
        let c = self.ver(0)?;
        if c == '_' || c.is_alphabetic() {
            let linea = self.linea;
            while self.ver(0).is_some_and(|c| c == '_' || c.is_alphanumeric()) {
                self.avanza();
            }
            let palabra = self.desde(inicio);
            let prefijo_crudo = matches!(palabra.as_str(), "r" | "br" | "cr");
            if prefijo_crudo && matches!(self.ver(0), Some('"' | '#')) && self.cadena_cruda() {
                return Some(Token::Literal(self.desde(inicio)));
            }
            if matches!(palabra.as_str(), "b" | "c") && self.ver(0) == Some('"') {
                self.cadena();
                return Some(Token::Literal(self.desde(inicio)));
            }
            if palabra == "b" && self.ver(0) == Some('\'') {
                self.avanza();
                self.caracter();
                return Some(Token::Literal(self.desde(inicio)));
            }
            return Some(Token::Identificador(palabra, linea));
        }
        if c.is_ascii_digit() {
            while self.ver(0).is_some_and(|c| c == '_' || c.is_alphanumeric()) {
                self.avanza();
            }
            return Some(Token::Literal(self.desde(inicio)));
        }
        self.avanza();
        match c {
            '"' => {
                self.i -= 1;
                self.cadena();
                Some(Token::Literal(self.desde(inicio)))
            }
            '\'' => {
                // 'a', '\n', '\'' son caracteres; 'a sin cierre, un tiempo de vida.
                if self.ver(0) == Some('\\') || self.ver(1) == Some('\'') {
                    self.caracter();
                    Some(Token::Literal(self.desde(inicio)))
                } else {
                    Some(Token::Otro('\''))
                }
            }
            _ => Some(Token::Otro(c)),
        }
    }

    fn comentario_de_bloque(&mut self) {
        let mut profundidad = 0usize;
        while let Some(c) = self.avanza() {
            if c == '/' && self.ver(0) == Some('*') {
                self.avanza();
                profundidad += 1;
            } else if c == '*' && self.ver(0) == Some('/') {
                self.avanza();
                profundidad -= 1;
                if profundidad == 0 {
                    return;
                }
            }
        }
    }

    /// Una cadena `"..."` con sus escapes, desde la comilla de apertura.
    fn cadena(&mut self) {
        self.avanza();
        while let Some(c) = self.avanza() {
            match c {
                '\\' => {
                    self.avanza();
                }
                '"' => return,
                _ => {}
            }
        }
    }

    /// El resto de un carácter, tras la comilla de apertura.
    fn caracter(&mut self) {
        while let Some(c) = self.avanza() {
            match c {
                '\\' => {
                    self.avanza();
                }
                '\'' => return,
                _ => {}
            }
        }
    }

    /// Una cadena cruda tras su prefijo (`r`, `br`, `cr`): `#"..."#`.
    /// Devuelve `false` (sin avanzar) si no lo es.
    fn cadena_cruda(&mut self) -> bool {
        let almohadillas = self.c[self.i..].iter().take_while(|&&c| c == '#').count();
        if self.ver(almohadillas) != Some('"') {
            return false;
        }
        for _ in 0..=almohadillas {
            self.avanza();
        }
        while let Some(c) = self.avanza() {
            if c == '"' && (0..almohadillas).all(|k| self.ver(k) == Some('#')) {
                for _ in 0..almohadillas {
                    self.avanza();
                }
                return true;
            }
        }
        true
    }

    /// Los argumentos de nivel superior de una macro, tras su `!`: el texto
    /// de cada uno, sin los vacíos del final (la coma final se permite).
    /// `None` si no sigue un delimitador.
    fn argumentos(&mut self) -> Option<Vec<String>> {
        let cierre = match self.siguiente()? {
            Token::Otro('(') => ')',
            Token::Otro('[') => ']',
            Token::Otro('{') => '}',
            _ => return None,
        };
        let mut pila = vec![cierre];
        let mut argumentos = vec![String::new()];
        let mut anterior: [Option<char>; 2] = [None, None];
        while let Some(token) = self.siguiente() {
            let texto = match &token {
                Token::Identificador(t, _) | Token::Literal(t) => t.clone(),
                Token::Otro(c) => c.to_string(),
            };
            if let Token::Otro(c) = token {
                match c {
                    '(' => pila.push(')'),
                    '[' => pila.push(']'),
                    '{' => pila.push('}'),
                    // `::<` abre un turbofish, cuyas comas tampoco cuentan.
                    '<' if anterior == [Some(':'), Some(':')] || pila.last() == Some(&'>') => pila.push('>'),
                    _ if pila.last() == Some(&c) => {
                        pila.pop();
                        if pila.is_empty() {
                            break;
                        }
                    }
                    ',' if pila.len() == 1 => {
                        argumentos.push(String::new());
                        anterior = [None, Some(c)];
                        continue;
                    }
                    _ => {}
                }
                anterior = [anterior[1], Some(c)];
            } else {
                anterior = [anterior[1], None];
            }
            let actual = argumentos.last_mut().expect("siempre hay uno");
            if !actual.is_empty() {
                actual.push(' ');
            }
            actual.push_str(&texto);
        }
        while argumentos.last().is_some_and(|a| a.is_empty()) {
            argumentos.pop();
        }
        Some(argumentos)
    }
}

#[cfg(test)]
mod pruebas {
    use super::*;

    fn lineas(codigo: &str) -> Vec<(usize, &'static str)> {
        sin_mensaje(codigo).into_iter().map(|a| (a.linea, a.macro_)).collect()
    }

    #[test]
    fn detecta_las_que_no_llevan_mensaje() {
        let codigo = "fn f() {\n    assert_eq!(a, b);\n    assert!(x);\n    assert_ne!(g(1, 2), [3, 4],);\n}\n";
        assert_eq!(lineas(codigo), vec![(2, "assert_eq"), (3, "assert"), (4, "assert_ne")]);
    }

    #[test]
    fn acepta_las_que_llevan_mensaje() {
        let codigo = r#"
            assert_eq!(a, b, "los dos deben coincidir");
            assert!(x, "x debía ser verdad: {}", x);
            assert_ne!(a, b, "{a} y {b}",);
            std::assert!(
                cola.is_empty(),
                "la cola debía quedar vacía"
            );
        "#;
        assert_eq!(lineas(codigo), vec![], "todas llevan mensaje");
    }

    #[test]
    fn las_comas_de_dentro_no_cuentan() {
        let codigo = r###"
            assert_eq!(f(1, 2), vec![3, 4]);
            assert_eq!(HashMap::<u32, u32>::new(), m);
            assert!(m.get(&(1, 2)).is_some());
            assert_eq!(s, "uno, dos");
            assert_eq!(s, r#"uno, "dos""#);
            assert_eq!(c, ',');
            assert_eq!(c, '\'');
            assert_eq!(b, b',');
            assert_eq!(x, { let a = 1; a + 1 });
            assert_eq!(v, Vec::<(u8, u8)>::new());
            assert_eq!(f(|a, b| a + b), 3 /* , "no" */);
            assert_eq!(g::<'a>(x), y); // , "tampoco"
        "###;
        let esperadas: Vec<usize> = (2..=13).collect();
        let encontradas: Vec<usize> = lineas(codigo).into_iter().map(|(l, _)| l).collect();
        assert_eq!(encontradas, esperadas, "ninguna de estas lleva mensaje: sus comas son de dentro");
    }

    #[test]
    fn un_mensaje_vacio_no_vale() {
        assert_eq!(lineas("assert!(x, \"\");"), vec![(1, "assert")], "un mensaje vacío no enseña nada");
    }

    #[test]
    fn no_confunde_otras_macros_ni_nombres() {
        let codigo = r#"
            debug_assert!(x);
            debug_assert_eq!(a, b);
            let assert = 3;
            fn assert_eq(a: u8, b: u8) {}
            assert_eq(1, 2);
            let s = "assert!(x)";
            // assert!(y);
            /* assert_eq!(a, b); /* anidado */ assert!(z); */
            let t: &'static str = "";
        "#;
        assert_eq!(lineas(codigo), vec![], "ninguna es una aserción de las pruebas");
    }

    #[test]
    fn lee_los_tiempos_de_vida_y_las_comillas_con_escape() {
        let codigo = "fn f<'a>(x: &'a str) {\n    let s = \"\\\"\";\n    assert!(x.len() > 0);\n}\n";
        assert_eq!(lineas(codigo), vec![(3, "assert")], "la aserción de la línea 3 no lleva mensaje");
    }
}
