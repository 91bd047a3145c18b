//! Los dos archivos de una ejecución grabada:
//!
//! - la traza del reproductor del libro (`book/trazas/tokio-CARGA.json`), en
//!   el mismo formato que las del ejecutor de enseñanza (`formato: 1`), con
//!   una cabecera `grabacion` que dice cómo se grabó y dónde está lo grabado;
//! - lo grabado tal cual (`lessons/08-robo-de-trabajo/resultados/tokio-CARGA.json`),
//!   de donde salen los pasos, la prueba de coherencia y la gráfica. La
//!   página del libro no lo carga.
//!
//! En lo grabado, `eventos` guarda un evento por línea, como una lista:
//! `[t_ns, que, tarea, trabajador, muestra, padre, lugar]` (las dos últimas,
//! solo en `lanza`; `lugar` es un índice de `lugares`), y cada muestra es
//! `[global, [cola, robadas, robos, desbordes, sondeos, locales], ...]`, una
//! lista por trabajador.

use serde_json::{Value, json};

use super::pasos::{self, Estado, duracion};
use super::{Carga, Contadores, Evento, Grabacion, Muestra, Que};

/// Los nombres de los campos de cada evento grabado, en orden.
pub const CAMPOS: [&str; 7] = ["t_ns", "que", "tarea", "trabajador", "muestra", "padre", "lugar"];
/// Los nombres de los contadores de cada trabajador en una muestra, en orden.
pub const CONTADORES: [&str; 6] = ["cola", "robadas", "robos", "desbordes", "sondeos", "locales"];

fn texto(s: &str) -> String {
    serde_json::to_string(s).expect("un texto siempre se escribe")
}

fn estado_json(e: &Estado) -> Value {
    let columnas: Vec<Value> = e
        .columnas
        .iter()
        .map(|c| {
            let robadas = match c.robos {
                0 => c.robadas.to_string(),
                1 => format!("{} (1 robo)", c.robadas),
                r => format!("{} ({r} robos)", c.robadas),
            };
            let mut col = json!({ "sondea": c.sondea, "cola": c.cola, "robadas": robadas, "desbordes": c.desbordes });
            if c.dormido {
                col["dormido"] = json!(true);
            }
            col
        })
        .collect();
    json!({ "columnas": columnas, "comunes": { "global": e.global } })
}

fn muestra_json(m: &Muestra) -> Value {
    let mut v = vec![json!(m.global)];
    v.extend(m.trabajadores.iter().map(|c| json!([c.cola, c.robadas, c.robos, c.desbordes, c.sondeos, c.locales])));
    Value::Array(v)
}

/// La traza del reproductor, tal como se guarda en `book/trazas/`.
pub fn traza_json(g: &Grabacion) -> String {
    let mut s = String::new();
    s.push_str("{\"formato\":1,\n");
    s.push_str(&format!("\"titulo\":{},\n", texto(g.carga.titulo())));
    s.push_str(&format!("\"descripcion\":{},\n", texto(&descripcion(g))));
    let columnas: Vec<String> = (0..g.trabajadores).map(|w| format!("Trabajador {w}")).collect();
    s.push_str(&format!("\"columnas\":{},\n", json!(columnas)));
    s.push_str(
        "\"casillas\":[{\"clave\":\"sondea\",\"nombre\":\"Sondea\"},\
         {\"clave\":\"cola\",\"nombre\":\"Cola local (muestra)\",\"elemento\":\"\"},\
         {\"clave\":\"robadas\",\"nombre\":\"Robadas (contador)\",\"elemento\":\"\"},\
         {\"clave\":\"desbordes\",\"nombre\":\"Desbordes (contador)\",\"elemento\":\"\"}],\n",
    );
    s.push_str("\"listas\":[],\n");
    s.push_str("\"comunes\":[{\"clave\":\"global\",\"nombre\":\"Cola global (muestra)\"}],\n");
    s.push_str("\"elemento\":\"tarea\",\n");
    s.push_str(&format!(
        "\"grabacion\":{{\"carga\":{},\"orden\":{},\"tokio\":{},\"trabajadores\":{},\"nucleos\":{},\"intentos\":{},\
         \"registro\":{}}},\n",
        texto(g.carga.nombre()),
        texto(&g.orden),
        texto(&g.tokio),
        g.trabajadores,
        g.nucleos,
        g.intentos,
        texto(&g.carga.registro())
    ));
    s.push_str(&format!("\"inicial\":{},\n", estado_json(&pasos::inicial(g))));
    s.push_str("\"eventos\":[\n");
    let pasos = pasos::pasos(g);
    for (i, p) in pasos.iter().enumerate() {
        let ev = json!({ "tipo": p.tipo, "columna": p.columna, "texto": p.texto, "estado": estado_json(&p.estado) });
        s.push_str(&ev.to_string());
        s.push_str(if i + 1 < pasos.len() { ",\n" } else { "\n" });
    }
    s.push_str("]}\n");
    s
}

/// Lo grabado, tal como se guarda en `lessons/08-robo-de-trabajo/resultados/`.
pub fn registro_json(g: &Grabacion) -> String {
    let mut lugares: Vec<&str> = Vec::new();
    for e in &g.eventos {
        if let Que::Lanza { lugar, .. } = &e.que
            && !lugares.contains(&lugar.as_str())
        {
            lugares.push(lugar);
        }
    }
    let mut s = String::new();
    s.push_str(&format!(
        "{{\"carga\":{},\"orden\":{},\"tokio\":{},\"trabajadores\":{},\"nucleos\":{},\"intentos\":{},\
         \"dormidos_al_empezar\":{},\n",
        texto(g.carga.nombre()),
        texto(&g.orden),
        texto(&g.tokio),
        g.trabajadores,
        g.nucleos,
        g.intentos,
        json!(g.dormidos_al_empezar)
    ));
    s.push_str(&format!("\"campos\":{},\n\"contadores\":{},\n", json!(CAMPOS), json!(CONTADORES)));
    s.push_str(&format!("\"lugares\":{},\n", json!(lugares)));
    s.push_str("\"eventos\":[\n");
    for (i, e) in g.eventos.iter().enumerate() {
        let mut fila =
            vec![json!(e.t_ns), json!(e.que.nombre()), json!(e.tarea), json!(e.trabajador), muestra_json(&e.muestra)];
        if let Que::Lanza { padre, lugar } = &e.que {
            fila.push(json!(padre));
            fila.push(json!(lugares.iter().position(|l| l == lugar)));
        }
        s.push_str(&Value::Array(fila).to_string());
        s.push_str(if i + 1 < g.eventos.len() { ",\n" } else { "\n" });
    }
    s.push_str("]}\n");
    s
}

/// La descripción de la carga y lo que se sabe de la ejecución.
fn descripcion(g: &Grabacion) -> String {
    let fin = g.eventos.last().map_or(0, |e| e.t_ns);
    let intentos = match g.intentos {
        1 => format!("la primera ejecución ya enseñó un paso «{}»", g.carga.promete()),
        n => format!("hicieron falta {n} ejecuciones hasta que una enseñó un paso «{}»", g.carga.promete()),
    };
    format!(
        "{} {} trabajadores; la grabación dura {}; {intentos}. Cada ejecución es distinta.",
        g.carga.descripcion(),
        g.trabajadores,
        duracion(fin)
    )
}

/// Lee lo grabado (el archivo de `resultados/`).
pub fn leer(json: &str) -> Result<Grabacion, String> {
    let g: Value = serde_json::from_str(json).map_err(|e| format!("no es JSON: {e}"))?;
    let campo = |k: &str| g.get(k).ok_or(format!("le falta «{k}»"));
    let numero = |k: &str| campo(k)?.as_u64().ok_or(format!("«{k}» no es un número"));
    let cadena = |k: &str| campo(k)?.as_str().map(str::to_string).ok_or(format!("«{k}» no es un texto"));
    let nombre = cadena("carga")?;
    let carga =
        Carga::TODAS.into_iter().find(|c| c.nombre() == nombre).ok_or(format!("carga desconocida «{nombre}»"))?;
    let lugares: Vec<String> = campo("lugares")?
        .as_array()
        .ok_or("«lugares» no es una lista")?
        .iter()
        .map(|l| l.as_str().map(str::to_string).ok_or("un lugar no es un texto".to_string()))
        .collect::<Result<_, _>>()?;
    let dormidos: Vec<bool> = campo("dormidos_al_empezar")?
        .as_array()
        .ok_or("«dormidos_al_empezar» no es una lista")?
        .iter()
        .map(|b| b.as_bool().unwrap_or(false))
        .collect();
    let mut eventos = Vec::new();
    for (n, fila) in campo("eventos")?.as_array().ok_or("«eventos» no es una lista")?.iter().enumerate() {
        eventos.push(leer_evento(fila, &lugares).map_err(|e| format!("evento {n}: {e}"))?);
    }
    Ok(Grabacion {
        carga,
        trabajadores: numero("trabajadores")? as usize,
        nucleos: numero("nucleos")? as usize,
        tokio: cadena("tokio")?,
        orden: cadena("orden")?,
        intentos: numero("intentos")? as u32,
        dormidos_al_empezar: dormidos,
        eventos,
    })
}

fn leer_evento(fila: &Value, lugares: &[String]) -> Result<Evento, String> {
    let f = fila.as_array().ok_or("no es una lista")?;
    let opcional = |i: usize| f.get(i).and_then(Value::as_u64).map(|x| x as usize);
    let que = match f.get(1).and_then(Value::as_str) {
        Some("lanza") => {
            let lugar = opcional(6).and_then(|l| lugares.get(l)).ok_or("un lanzamiento sin lugar")?.clone();
            Que::Lanza { padre: opcional(5), lugar }
        }
        Some("empieza") => Que::Empieza,
        Some("acaba") => Que::Acaba,
        Some("termina") => Que::Termina,
        Some("duerme") => Que::Duerme,
        Some("despierta") => Que::Despierta,
        Some("cierre") => Que::Cierre,
        otro => return Err(format!("tipo desconocido {otro:?}")),
    };
    let m = f.get(4).and_then(Value::as_array).ok_or("sin muestra")?;
    let global = m.first().and_then(Value::as_u64).ok_or("muestra sin cola global")?;
    let mut trabajadores = Vec::new();
    for c in &m[1..] {
        let c: Vec<u64> =
            c.as_array().ok_or("contadores que no son una lista")?.iter().filter_map(Value::as_u64).collect();
        let [cola, robadas, robos, desbordes, sondeos, locales] = c[..] else {
            return Err(format!("se esperaban {} contadores por trabajador", CONTADORES.len()));
        };
        trabajadores.push(Contadores { cola, robadas, robos, desbordes, sondeos, locales });
    }
    Ok(Evento {
        t_ns: f.first().and_then(Value::as_u64).ok_or("sin tiempo")?,
        que,
        tarea: opcional(2),
        trabajador: opcional(3),
        muestra: Muestra { global, trabajadores },
    })
}

/// Un sondeo de la línea de tiempo.
#[derive(Debug, Clone, PartialEq)]
pub struct Sondeo {
    pub trabajador: usize,
    pub tarea: usize,
    pub inicio_ms: f64,
    pub fin_ms: f64,
    /// El tipo de su paso en el reproductor: `robo`, `global`, `ranura` o `sondea`.
    pub como: &'static str,
}

/// Lo que dibuja `grafica-tokio-*`: qué sondeó cada trabajador y cuándo dormía.
#[derive(Debug, Clone, PartialEq)]
pub struct LineaDeTiempo {
    pub carga: Carga,
    pub trabajadores: usize,
    pub sondeos: Vec<Sondeo>,
    /// (trabajador, desde, hasta), en ms.
    pub suenos: Vec<(usize, f64, f64)>,
    pub fin_ms: f64,
}

/// La línea de tiempo de lo grabado (el archivo de `resultados/`).
pub fn leer_linea_de_tiempo(json: &str) -> Result<LineaDeTiempo, String> {
    let g = leer(json)?;
    let pasos = pasos::pasos(&g);
    // Cada `Empieza` da un paso; en el mismo orden.
    let mut tipos = pasos.iter().filter(|p| ["robo", "global", "ranura", "sondea"].contains(&p.tipo)).map(|p| p.tipo);
    let ms = |ns: u64| ns as f64 / 1e6;
    let fin = g.eventos.last().map_or(0, |e| e.t_ns);
    let mut abiertos: Vec<Option<(usize, u64, &'static str)>> = vec![None; g.trabajadores];
    let mut dormido: Vec<Option<u64>> =
        (0..g.trabajadores).map(|w| g.dormidos_al_empezar.get(w).copied().unwrap_or(false).then_some(0)).collect();
    let (mut sondeos, mut suenos) = (Vec::new(), Vec::new());
    for e in &g.eventos {
        let Some(w) = e.trabajador.filter(|w| *w < g.trabajadores) else { continue };
        match (&e.que, e.tarea) {
            (Que::Empieza, Some(t)) => abiertos[w] = Some((t, e.t_ns, tipos.next().unwrap_or("sondea"))),
            (Que::Acaba, Some(t)) => {
                if let Some((a, inicio, como)) = abiertos[w].take().filter(|(a, _, _)| *a == t) {
                    sondeos.push(Sondeo { trabajador: w, tarea: a, inicio_ms: ms(inicio), fin_ms: ms(e.t_ns), como });
                }
            }
            (Que::Duerme, _) => dormido[w] = Some(e.t_ns),
            (Que::Despierta, _) => {
                if let Some(a) = dormido[w].take() {
                    suenos.push((w, ms(a), ms(e.t_ns)));
                }
            }
            _ => {}
        }
    }
    for (w, d) in dormido.iter().enumerate() {
        if let Some(a) = d {
            suenos.push((w, ms(*a), ms(fin)));
        }
    }
    Ok(LineaDeTiempo { carga: g.carga, trabajadores: g.trabajadores, sondeos, suenos, fin_ms: ms(fin) })
}

#[cfg(test)]
mod pruebas {
    use super::*;

    fn grabacion() -> Grabacion {
        let m = |global, cola| Muestra {
            global,
            trabajadores: vec![Contadores { cola, ..Contadores::default() }, Contadores::default()],
        };
        let ev = |t, que, tarea, w, muestra| Evento { t_ns: t, que, tarea, trabajador: w, muestra };
        Grabacion {
            carga: Carga::Reparto,
            trabajadores: 2,
            nucleos: 2,
            tokio: "1.54.1".into(),
            orden: "cargo run --release -p leccion-08".into(),
            intentos: 2,
            dormidos_al_empezar: vec![true, true],
            eventos: vec![
                ev(0, Que::Lanza { padre: None, lugar: "a.rs:3".into() }, Some(0), None, m(1, 0)),
                ev(1_000, Que::Despierta, None, Some(0), m(1, 0)),
                ev(2_000, Que::Empieza, Some(0), Some(0), m(0, 0)),
                ev(3_000, Que::Lanza { padre: Some(0), lugar: "a.rs:9".into() }, Some(1), Some(0), m(0, 0)),
                ev(4_000, Que::Termina, Some(0), Some(0), m(0, 0)),
                ev(5_000, Que::Acaba, Some(0), Some(0), m(0, 0)),
                ev(6_000, Que::Empieza, Some(1), Some(0), m(0, 0)),
                ev(9_000, Que::Termina, Some(1), Some(0), m(0, 0)),
                ev(9_500, Que::Acaba, Some(1), Some(0), m(0, 0)),
                ev(10_000, Que::Cierre, None, None, m(0, 0)),
            ],
        }
    }

    #[test]
    fn lo_grabado_se_lee_tal_cual() {
        let g = grabacion();
        let registro = registro_json(&g);
        assert_eq!(leer(&registro).unwrap(), g);
        let r: Value = serde_json::from_str(&registro).expect("es JSON");
        assert_eq!(r["lugares"], json!(["a.rs:3", "a.rs:9"]));
        // Un evento por línea: se puede leer y comparar a ojo.
        assert!(registro.lines().any(|l| l.starts_with("[2000,\"empieza\",0,0,")), "{registro}");
        let v: Value = serde_json::from_str(&traza_json(&g)).expect("es JSON");
        assert_eq!(v["formato"], 1);
        assert_eq!(v["eventos"].as_array().unwrap().len(), pasos::pasos(&g).len());
        assert_eq!(v["inicial"]["columnas"][0]["dormido"], true);
        assert_eq!(v["eventos"][1]["estado"]["columnas"][0].get("dormido"), None, "despierto: sin la clave");
        assert_eq!(v["eventos"][0]["estado"]["comunes"]["global"], 1);
        assert!(v["descripcion"].as_str().unwrap().contains("hicieron falta 2 ejecuciones"));
        assert_eq!(v["grabacion"]["registro"], "lessons/08-robo-de-trabajo/resultados/tokio-reparto.json");
        assert_eq!(v["grabacion"]["orden"], "cargo run --release -p leccion-08");
    }

    #[test]
    fn la_linea_de_tiempo_sale_de_lo_grabado() {
        let l = leer_linea_de_tiempo(&registro_json(&grabacion())).unwrap();
        assert_eq!(l.sondeos.len(), 2);
        assert_eq!((l.sondeos[1].tarea, l.sondeos[1].como), (1, "ranura"));
        assert_eq!(l.sondeos[0].como, "global");
        assert!((l.sondeos[1].fin_ms - 0.0095).abs() < 1e-9);
        assert_eq!(l.suenos, vec![(0, 0.0, 0.001), (1, 0.0, 0.01)]);
    }

    #[test]
    fn un_archivo_roto_da_un_error_que_se_entiende() {
        assert!(leer("{").unwrap_err().starts_with("no es JSON"));
        assert_eq!(leer("{}").unwrap_err(), "le falta «carga»");
        let roto = registro_json(&grabacion()).replace("\"empieza\"", "\"empezo\"");
        assert!(leer(&roto).unwrap_err().contains("tipo desconocido"), "{}", leer(&roto).unwrap_err());
    }
}
