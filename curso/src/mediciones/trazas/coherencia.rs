//! Las comprobaciones de una traza grabada, sobre su JSON: la forma de la
//! traza del reproductor, la de lo grabado y su coherencia. Cada función
//! devuelve frases en español, una por problema (como mucho [`MAXIMO`] por
//! archivo: con una traza rota, las primeras bastan).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::mediciones::comprobar::paquete_de;

/// Los problemas que se cuentan, como mucho, de cada archivo.
pub const MAXIMO: usize = 12;

/// Lo que se grabó en cada evento, en el orden de sus campos.
const QUE: [&str; 7] = ["lanza", "empieza", "acaba", "termina", "duerme", "despierta", "cierre"];
/// Los contadores de cada trabajador en una muestra; los que no pueden bajar
/// son todos menos el primero (la profundidad de la cola local).
const CONTADORES: usize = 6;
const NOMBRES: [&str; CONTADORES] = ["cola", "robadas", "robos", "desbordes", "sondeos", "locales"];

/// Lo que se comprueba de una orden de grabación.
pub fn orden_valida(orden: &str) -> Vec<String> {
    let mut p = Vec::new();
    if !orden.starts_with("cargo run ") || paquete_de(orden).is_none() {
        p.push(format!("(`{orden}`) no es `cargo run ... -p PAQUETE ...`"));
    }
    p
}

/// La traza del reproductor (`formato: 1`): su forma, y que tiene algún
/// paso del tipo `ensena`.
pub fn reproductor(v: &Value, ensena: &str) -> Vec<String> {
    let mut p = Vec::new();
    if v["formato"] != 1 {
        p.push("no es una traza del reproductor («formato» no es 1)".to_string());
        return p;
    }
    for clave in ["titulo", "descripcion", "elemento"] {
        if !v[clave].is_string() {
            p.push(format!("le falta «{clave}»"));
        }
    }
    let n = v["columnas"].as_array().map_or(0, Vec::len);
    if n == 0 {
        p.push("no tiene columnas".to_string());
        return p;
    }
    let claves = |k: &str| -> Vec<String> {
        v[k].as_array().into_iter().flatten().filter_map(|c| c["clave"].as_str().map(str::to_string)).collect()
    };
    let (casillas, listas, comunes) = (claves("casillas"), claves("listas"), claves("comunes"));
    let estado = |e: &Value, donde: &str, p: &mut Vec<String>| {
        let cols = e["columnas"].as_array().map_or(&[][..], Vec::as_slice);
        if cols.len() != n {
            p.push(format!("{donde}: tiene {} columnas y la traza {n}", cols.len()));
            return;
        }
        for (i, c) in cols.iter().enumerate() {
            for k in casillas.iter().chain(&listas) {
                if c.get(k).is_none() {
                    p.push(format!("{donde}: a la columna {i} le falta «{k}»"));
                }
            }
        }
        for k in &comunes {
            if e["comunes"].get(k).is_none() {
                p.push(format!("{donde}: le falta la cola común «{k}»"));
            }
        }
    };
    estado(&v["inicial"], "el estado inicial", &mut p);
    let eventos = v["eventos"].as_array().map_or(&[][..], Vec::as_slice);
    if eventos.is_empty() {
        p.push("no tiene eventos".to_string());
    }
    for (i, e) in eventos.iter().enumerate() {
        let donde = format!("el paso {}", i + 1);
        if !e["tipo"].is_string() || e["texto"].as_str().is_none_or(|t| t.trim().is_empty()) {
            p.push(format!("{donde}: le falta el tipo o la frase"));
        }
        if !e["columna"].is_null() && e["columna"].as_u64().is_none_or(|c| c as usize >= n) {
            p.push(format!("{donde}: la columna {} no existe", e["columna"]));
        }
        estado(&e["estado"], &donde, &mut p);
        if p.len() >= MAXIMO {
            return p;
        }
    }
    if !eventos.iter().any(|e| e["tipo"] == ensena) {
        p.push(format!("no tiene ningún paso «{ensena}», y el registro dice que lo enseña"));
    }
    p
}

/// Lo que cada tarea lleva hecho, según lo grabado.
#[derive(Default)]
struct Tarea {
    lanzada: bool,
    terminada: bool,
    /// El trabajador que la sondea ahora.
    en: Option<u64>,
}

/// Lo grabado: su forma y su coherencia. Cada tarea sondeada se lanzó antes;
/// ninguna se sondea en dos trabajadores a la vez (ni un trabajador sondea
/// dos a la vez); ningún contador baja; el tiempo no retrocede; la grabación
/// acaba con el cierre y con todas sus tareas terminadas.
pub fn grabado(v: &Value) -> Vec<String> {
    let mut p = Vec::new();
    let Some(n) = v["trabajadores"].as_u64().filter(|n| *n > 0) else {
        return vec!["le falta «trabajadores»".to_string()];
    };
    let lugares = v["lugares"].as_array().map_or(0, Vec::len);
    let Some(eventos) = v["eventos"].as_array().filter(|e| !e.is_empty()) else {
        return vec!["no tiene eventos".to_string()];
    };
    let mut tareas: BTreeMap<u64, Tarea> = BTreeMap::new();
    let mut sondea: Vec<Option<u64>> = vec![None; n as usize];
    let mut contadores: Vec<[u64; CONTADORES]> = vec![[0; CONTADORES]; n as usize];
    let mut antes = 0u64;
    for (i, e) in eventos.iter().enumerate() {
        if p.len() >= MAXIMO {
            return p;
        }
        let donde = format!("el evento {i}");
        let f = e.as_array().map_or(&[][..], Vec::as_slice);
        let (Some(t), Some(que)) = (f.first().and_then(Value::as_u64), f.get(1).and_then(Value::as_str)) else {
            p.push(format!("{donde} no es [t_ns, que, tarea, trabajador, muestra, ...]"));
            continue;
        };
        if !QUE.contains(&que) {
            p.push(format!("{donde}: «{que}» no es nada que se grabe"));
            continue;
        }
        if t < antes {
            p.push(format!("{donde} ({que}) va antes en el tiempo que el anterior"));
        }
        antes = t;
        let tarea = f.get(2).and_then(Value::as_u64);
        let trabajador = f.get(3).and_then(Value::as_u64);
        if trabajador.is_some_and(|w| w >= n) {
            p.push(format!("{donde}: el trabajador {} no existe", trabajador.unwrap_or_default()));
            continue;
        }
        // La muestra: los contadores de cada trabajador nunca bajan.
        match f.get(4).and_then(Value::as_array).filter(|m| m.len() == n as usize + 1) {
            None => p.push(format!("{donde}: su muestra no tiene la cola global y {n} trabajadores")),
            Some(m) => {
                for (w, c) in m[1..].iter().enumerate() {
                    let c: Vec<u64> = c.as_array().into_iter().flatten().filter_map(Value::as_u64).collect();
                    if c.len() != CONTADORES {
                        p.push(format!("{donde}: el trabajador {w} no tiene {CONTADORES} contadores"));
                        continue;
                    }
                    for k in 1..CONTADORES {
                        if c[k] < contadores[w][k] {
                            p.push(format!(
                                "{donde}: el contador «{}» del trabajador {w} baja de {} a {}",
                                NOMBRES[k], contadores[w][k], c[k]
                            ));
                        }
                        contadores[w][k] = contadores[w][k].max(c[k]);
                    }
                }
            }
        }
        let necesita = |p: &mut Vec<String>, x: Option<u64>, que_es: &str| {
            if x.is_none() {
                p.push(format!("{donde} ({que}) no dice su {que_es}"));
            }
            x
        };
        match que {
            "lanza" => {
                let Some(id) = necesita(&mut p, tarea, "tarea") else { continue };
                let ya = tareas.entry(id).or_default();
                if ya.lanzada {
                    p.push(format!("{donde}: la tarea {id} se lanza dos veces"));
                }
                ya.lanzada = true;
                if let Some(padre) = f.get(5).and_then(Value::as_u64)
                    && trabajador.is_none_or(|w| sondea[w as usize] != Some(padre))
                {
                    p.push(format!("{donde}: la tarea {padre} lanza la {id} sin estar sondeándose en ese trabajador"));
                }
                if f.get(6).and_then(Value::as_u64).is_none_or(|l| l as usize >= lugares) {
                    p.push(format!("{donde}: el lanzamiento de la tarea {id} no dice su lugar"));
                }
            }
            "empieza" => {
                let (Some(id), Some(w)) =
                    (necesita(&mut p, tarea, "tarea"), necesita(&mut p, trabajador, "trabajador"))
                else {
                    continue;
                };
                let x = tareas.entry(id).or_default();
                if !x.lanzada {
                    p.push(format!("{donde}: el trabajador {w} sondea la tarea {id}, que nadie lanzó"));
                }
                if x.terminada {
                    p.push(format!("{donde}: el trabajador {w} sondea la tarea {id}, que ya había terminado"));
                }
                if let Some(otro) = x.en {
                    p.push(format!("{donde}: el trabajador {w} sondea la tarea {id} mientras el {otro} aún la sondea"));
                }
                if let Some(otra) = sondea[w as usize] {
                    p.push(format!("{donde}: el trabajador {w} empieza la tarea {id} sin haber acabado la {otra}"));
                }
                x.en = Some(w);
                sondea[w as usize] = Some(id);
            }
            "acaba" | "termina" => {
                let (Some(id), Some(w)) =
                    (necesita(&mut p, tarea, "tarea"), necesita(&mut p, trabajador, "trabajador"))
                else {
                    continue;
                };
                if sondea[w as usize] != Some(id) {
                    p.push(format!("{donde}: la tarea {id} {que} en el trabajador {w}, que no la estaba sondeando"));
                }
                let x = tareas.entry(id).or_default();
                if que == "termina" {
                    if x.terminada {
                        p.push(format!("{donde}: la tarea {id} termina dos veces"));
                    }
                    x.terminada = true;
                } else {
                    x.en = None;
                    sondea[w as usize] = None;
                }
            }
            "duerme" | "despierta" => {
                if let Some(w) = necesita(&mut p, trabajador, "trabajador")
                    && let Some(t) = sondea[w as usize]
                {
                    p.push(format!("{donde}: el trabajador {w} {que} mientras sondea la tarea {t}"));
                }
            }
            _ => {
                if i + 1 != eventos.len() {
                    p.push(format!("{donde}: el cierre no es el último evento"));
                }
            }
        }
    }
    if eventos.last().and_then(|e| e[1].as_str()) != Some("cierre") {
        p.push("no acaba con el cierre (la muestra con todos los contadores publicados)".to_string());
    }
    let sin_terminar: BTreeSet<u64> =
        tareas.iter().filter(|(_, t)| t.lanzada && !t.terminada).map(|(i, _)| *i).collect();
    if !sin_terminar.is_empty() && p.len() < MAXIMO {
        let lista: Vec<String> = sin_terminar.iter().take(5).map(u64::to_string).collect();
        p.push(format!("{} tareas lanzadas no terminan (la {}...)", sin_terminar.len(), lista.join(", la ")));
    }
    p
}

/// Lo que la traza y lo grabado deben decir de sí mismos.
pub struct Cabecera<'a> {
    pub orden: &'a str,
    pub tokio: &'a str,
    pub registro: &'a str,
    /// Los núcleos de la máquina del registro, si se conoce.
    pub nucleos: Option<u64>,
}

/// La cabecera de la traza (`grabacion`) y la de lo grabado, contra el
/// registro y entre sí. Devuelve `("traza" | "grabado", problema)`.
pub fn cabeceras(traza: &Value, grabado: &Value, e: &Cabecera) -> Vec<(&'static str, String)> {
    let mut p = Vec::new();
    let cab = &traza["grabacion"];
    if !cab.is_object() {
        p.push(("traza", "no dice cómo se grabó (le falta «grabacion»)".to_string()));
        return p;
    }
    for (donde, v) in [("traza", cab), ("grabado", grabado)] {
        if v["orden"].as_str() != Some(e.orden) {
            p.push((donde, format!("dice que la grabó `{}`, y el registro, `{}`", v["orden"], e.orden)));
        }
        if v["tokio"].as_str() != Some(e.tokio) {
            p.push((donde, format!("dice que se grabó con Tokio {}, y el registro, {}", v["tokio"], e.tokio)));
        }
        if let Some(nucleos) = e.nucleos
            && v["nucleos"].as_u64() != Some(nucleos)
        {
            p.push((donde, format!("se grabó con {} núcleos y la máquina del registro tiene {nucleos}", v["nucleos"])));
        }
    }
    if cab["registro"].as_str() != Some(e.registro) {
        p.push(("traza", format!("dice que lo grabado está en {}, y el registro, en {}", cab["registro"], e.registro)));
    }
    let columnas = traza["columnas"].as_array().map_or(0, Vec::len) as u64;
    for (donde, v) in [("traza", cab), ("grabado", grabado)] {
        if v["trabajadores"].as_u64() != Some(columnas) {
            p.push((donde, format!("dice {} trabajadores y la traza tiene {columnas} columnas", v["trabajadores"])));
        }
    }
    p
}
