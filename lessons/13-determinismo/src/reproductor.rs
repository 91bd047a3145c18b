//! La traza de una semilla que falla, en el formato del reproductor del libro
//! (el mismo del capítulo 9): una columna por isolate, los mensajes en vuelo
//! hacia cada uno y la entrega que rompe la invariante, resaltada.
//! `cargo run -q -p leccion-13 --bin traza-reproductor` la escribe en
//! `book/trazas/cajeros.json`; una prueba comprueba que está al día.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use nucleo::sim::Simulador;
use nucleo::{Ctx, Dir, Effect, Isolate, Remitente};

use crate::{Antifraude, Cajero, Cuenta, INGRESO_LENTO, INGRESOS_RAPIDO, Msg, RONDAS, SALDO_INICIAL};

/// La primera semilla que falla entre las 1000 primeras (la de la lección).
pub const SEMILLA_QUE_FALLA: u64 = 31;

/// Una entrega: a qué columna, de quién, qué mensaje y qué envió al atenderlo.
struct Entrega {
    columna: usize,
    de: Remitente,
    msg: Msg,
    envios: Vec<(Remitente, Msg)>,
}

/// Envuelve un isolate y anota cada mensaje que atiende y lo que envía.
struct Espia {
    columna: usize,
    dentro: Box<dyn Isolate<Msg = Msg>>,
    registro: Arc<Mutex<Vec<Entrega>>>,
}

impl Isolate for Espia {
    type Msg = Msg;
    fn handle(&mut self, msg: Msg, ctx: &mut Ctx) -> Effect<Msg> {
        let de = ctx.remitente();
        let efecto = self.dentro.handle(msg.clone(), ctx);
        let envios = match &efecto {
            Effect::Reply(m) => vec![(de, m.clone())],
            Effect::Send(d, m) => vec![(Remitente::Isolate(*d), m.clone())],
            _ => Vec::new(),
        };
        self.registro.lock().unwrap().push(Entrega { columna: self.columna, de, msg, envios });
        efecto
    }
}

const NOMBRES: [&str; 4] = ["Cajero rápido (0:0)", "Cuenta (1:0)", "Antifraude (1:1)", "Cajero lento (1:2)"];

fn nombre_de(r: Remitente, dirs: &[Dir; 4]) -> String {
    match r {
        Remitente::Fuera => "fuera".to_string(),
        Remitente::Isolate(d) => dirs
            .iter()
            .position(|x| *x == d)
            .map_or(d.to_string(), |i| ["cajero rápido", "cuenta", "antifraude", "cajero lento"][i].to_string()),
    }
}

/// La traza de `semilla`, en JSON para el reproductor.
pub fn traza_json(semilla: u64) -> String {
    let registro = Arc::new(Mutex::new(Vec::new()));
    let espia = |columna, dentro| Box::new(Espia { columna, dentro, registro: Arc::clone(&registro) });
    let mut sim = Simulador::new(semilla, 2);
    // Las mismas direcciones que `escenario`: la cuenta 1:0, el antifraude
    // 1:1, el rápido 0:0, el lento 1:2.
    let cuenta = sim.spawn(1, espia(1, Box::new(Cuenta::new(SALDO_INICIAL))));
    let antifraude = sim.spawn(1, espia(2, Box::new(Antifraude)));
    let rapido = sim.spawn(0, espia(0, Box::new(Cajero::rapido(cuenta))));
    let lento = sim.spawn(1, espia(3, Box::new(Cajero::lento(cuenta, antifraude, RONDAS))));
    let dirs = [rapido, cuenta, antifraude, lento];
    let mut en_vuelo: Vec<(usize, Remitente, Msg)> = Vec::new();
    for cantidad in INGRESOS_RAPIDO {
        sim.envia(rapido, Msg::Ingresa(cantidad)).expect("los buzones empiezan vacíos");
        en_vuelo.push((0, Remitente::Fuera, Msg::Ingresa(cantidad)));
    }
    sim.envia(lento, Msg::Ingresa(INGRESO_LENTO)).unwrap();
    en_vuelo.push((3, Remitente::Fuera, Msg::Ingresa(INGRESO_LENTO)));
    sim.corre(10_000);

    let columna_de = |r: &Remitente| match r {
        Remitente::Isolate(d) => dirs.iter().position(|x| x == d),
        Remitente::Fuera => None,
    };
    let mut saldo = SALDO_INICIAL;
    let mut ingresado = SALDO_INICIAL;
    let mut hechos = [0u32; 4];
    let mut atiende: [Option<String>; 4] = Default::default();
    let foto = |en_vuelo: &[(usize, Remitente, Msg)], saldo: i64, hechos: &[u32; 4], atiende: &[Option<String>; 4]| {
        let mut s = String::from("{\"columnas\":[");
        for c in 0..4 {
            let estado = match c {
                1 => format!("saldo {saldo}"),
                2 => "da por buena cada comprobación".to_string(),
                _ if hechos[c] == 1 => "1 ingreso hecho".to_string(),
                _ => format!("{} ingresos hechos", hechos[c]),
            };
            let buzon: Vec<String> = en_vuelo
                .iter()
                .filter(|(para, ..)| *para == c)
                .map(|(_, de, m)| cadena(&format!("{m:?} (de {})", nombre_de(*de, &dirs))))
                .collect();
            let atiende = atiende[c].as_deref().map_or("null".to_string(), cadena);
            let _ = write!(
                s,
                "{}{{\"atiende\":{atiende},\"estado\":{},\"buzon\":[{}],\"dormido\":false}}",
                if c > 0 { "," } else { "" },
                cadena(&estado),
                buzon.join(",")
            );
        }
        s.push_str("],\"comunes\":{}}");
        s
    };
    let mut s = String::new();
    s.push_str("{\"formato\":1,\n");
    let _ = writeln!(s, "\"titulo\":{},", cadena(&format!("Los cajeros con la semilla {semilla}")));
    let _ = writeln!(
        s,
        "\"descripcion\":{},",
        cadena("Cada paso es una entrega que eligió la semilla. Bajo cada isolate, los mensajes en vuelo hacia él.")
    );
    let _ = writeln!(s, "\"semilla\":{semilla},");
    let columnas: Vec<String> = NOMBRES.iter().map(|n| cadena(n)).collect();
    let _ = writeln!(s, "\"columnas\":[{}],", columnas.join(","));
    s.push_str(
        "\"casillas\":[{\"clave\":\"atiende\",\"nombre\":\"Atiende\"},{\"clave\":\"estado\",\"nombre\":\"Estado\"}],\n",
    );
    s.push_str("\"listas\":[{\"clave\":\"buzon\",\"nombre\":\"En vuelo hacia él\"}],\n");
    s.push_str("\"comunes\":[],\n\"elemento\":\"mensaje\",\n");
    let _ = writeln!(s, "\"inicial\":{},", foto(&en_vuelo, saldo, &hechos, &atiende));
    s.push_str("\"eventos\":[\n");
    let entregas = std::mem::take(&mut *registro.lock().unwrap());
    for (i, e) in entregas.iter().enumerate() {
        if let Some(pos) = en_vuelo.iter().position(|(para, de, m)| *para == e.columna && *de == e.de && *m == e.msg) {
            en_vuelo.remove(pos);
        }
        atiende = Default::default();
        atiende[e.columna] = Some(format!("{:?}", e.msg));
        let de = nombre_de(e.de, &dirs);
        let para = NOMBRES[e.columna];
        let mut texto = format!("Entrega {}: la semilla elige {:?}, de {de} a {para}.", i + 1, e.msg);
        let mut alerta = false;
        match &e.msg {
            Msg::Ingresa(c) => ingresado += c,
            Msg::Escribe { leido, nuevo } if e.columna == 1 => {
                if *leido != saldo {
                    alerta = true;
                    let _ = write!(
                        texto,
                        " ¡La invariante se rompe! La cuenta tiene {saldo}, pero este cajero leyó {leido} antes de que otro escribiera: escribe {nuevo} y se pierden {}.",
                        saldo - leido
                    );
                }
                saldo = *nuevo;
            }
            Msg::Escrito => hechos[e.columna] += 1,
            _ => {}
        }
        for (para, m) in &e.envios {
            if let Some(c) = columna_de(para) {
                en_vuelo.push((c, Remitente::Isolate(dirs[e.columna]), m.clone()));
                let _ = write!(texto, " Envía {m:?} a {}.", nombre_de(*para, &dirs));
            }
        }
        let _ = write!(
            s,
            "{{\"tipo\":\"{}\",\"columna\":{},\"alerta\":{alerta},\"texto\":{},\"estado\":{}}}",
            if alerta { "invariante" } else { "entrega" },
            e.columna,
            cadena(&texto),
            foto(&en_vuelo, saldo, &hechos, &atiende)
        );
        s.push_str(if i + 1 < entregas.len() { ",\n" } else { "\n" });
    }
    let _ = ingresado;
    s.push_str("]}\n");
    s
}

/// Una cadena JSON con sus escapes.
fn cadena(texto: &str) -> String {
    let mut s = String::from("\"");
    for c in texto.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

/// Dónde vive la traza en el libro.
pub fn ruta_en_el_libro() -> std::path::PathBuf {
    let raiz = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("lessons/NN/ está dentro del repositorio");
    raiz.join("book/trazas/cajeros.json")
}
