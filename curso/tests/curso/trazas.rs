//! Las trazas grabadas del Tokio de verdad (`[[traza]]` de los registros):
//! las del libro cuadran, y una traza rota, de cualquiera de las maneras que
//! la prueba conoce, no pasa, y el mensaje nombra la orden que la grabó. No
//! compila Tokio: lee los JSON guardados.

use std::fs;
use std::path::{Path, PathBuf};

use curso::Curso;
use curso::mediciones::trazas::{self, Contexto, TrazaRegistrada};
use serde_json::Value;

fn raiz() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn registradas() -> Vec<TrazaRegistrada> {
    let (t, mal) = trazas::registradas(&Curso::cargar(&raiz()).unwrap());
    assert!(mal.is_empty(), "{mal:#?}");
    t
}

#[test]
fn las_trazas_del_libro_cuadran_y_dicen_como_se_grabaron() {
    let t = registradas();
    for ensena in ["robo", "desborde"] {
        assert!(t.iter().any(|t| t.ensena == ensena), "ninguna traza registrada enseña un «{ensena}»");
    }
    for x in &t {
        assert!(x.orden.contains("tokio_unstable") && x.orden.contains("--bin grabador"), "{}: {}", x.archivo, x.orden);
        assert!(!x.maquina.is_empty() && !x.tokio.is_empty(), "{x:?}");
    }
    let problemas = trazas::comprobar(&Curso::cargar(&raiz()).unwrap());
    let lista: Vec<String> = problemas.iter().map(ToString::to_string).collect();
    assert!(lista.is_empty(), "las trazas grabadas no cuadran:\n- {}", lista.join("\n- "));
}

/// Una copia de una traza registrada y de lo grabado, en una carpeta aparte,
/// con `rompe` aplicado a lo grabado (`g`) y a la traza (`t`).
fn rota(nombre: &str, rompe: impl FnOnce(&mut Value, &mut Value, &mut TrazaRegistrada)) -> Vec<String> {
    let original = registradas().into_iter().find(|t| t.ensena == "robo").expect("hay una traza con un robo");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("trazas-rotas").join(nombre);
    let leer = |ruta: &str| -> Value { serde_json::from_str(&fs::read_to_string(raiz().join(ruta)).unwrap()).unwrap() };
    let (mut g, mut t) = (leer(&original.registro), leer(&original.archivo));
    let mut registrada = original.clone();
    rompe(&mut g, &mut t, &mut registrada);
    let escribe = |ruta: &str, v: &Value| {
        let p = dir.join(ruta);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, serde_json::to_string(v).unwrap()).unwrap();
    };
    escribe(&original.registro, &g);
    escribe(&original.archivo, &t);
    let p = trazas::comprobar_una(Path::new(&dir), &registrada, &Contexto::de(&raiz()));
    for x in &p {
        assert!(x.mensaje.contains(&original.orden), "el problema no nombra la orden que grabó la traza: {x}");
    }
    p.iter().map(ToString::to_string).collect()
}

fn eventos(g: &mut Value) -> &mut Vec<Value> {
    g["eventos"].as_array_mut().unwrap()
}

/// El primer evento `que` de una tarea que se sondea en el trabajador 0.
fn primero(g: &mut Value, que: &str) -> usize {
    eventos(g).iter().position(|e| e[1] == que && e[3] == 0).expect("el trabajador 0 hace algo")
}

fn dice(problemas: &[String], frase: &str) {
    assert!(problemas.iter().any(|p| p.contains(frase)), "se esperaba «{frase}» en:\n{problemas:#?}");
}

#[test]
fn sin_tocar_la_copia_pasa() {
    assert_eq!(rota("intacta", |_, _, _| {}), Vec::<String>::new());
}

#[test]
fn una_tarea_sondeada_que_nadie_lanzo_no_pasa() {
    let p = rota("sin-lanzar", |g, _, _| {
        let i = primero(g, "empieza");
        let tarea = eventos(g)[i][2].clone();
        eventos(g).retain(|e| !(e[1] == "lanza" && e[2] == tarea));
    });
    dice(&p, "que nadie lanzó");
}

#[test]
fn una_tarea_en_dos_trabajadores_a_la_vez_no_pasa() {
    let p = rota("dos-a-la-vez", |g, _, _| {
        let i = primero(g, "empieza");
        let mut copia = eventos(g)[i].clone();
        copia[3] = Value::from(1);
        eventos(g).insert(i + 1, copia);
    });
    dice(&p, "aún la sondea");
}

#[test]
fn un_contador_que_baja_no_pasa() {
    let p = rota("contador", |g, _, _| {
        let ultimo = eventos(g).len() - 2;
        // El penúltimo evento: el trabajador 0 ya ha publicado sus robos.
        eventos(g)[ultimo][4][1][1] = Value::from(0);
    });
    dice(&p, "el contador «robadas» del trabajador 0 baja de");
}

#[test]
fn una_traza_que_no_ensena_lo_que_dice_no_pasa() {
    let p = rota("sin-robo", |_, t, _| {
        for e in t["eventos"].as_array_mut().unwrap() {
            if e["tipo"] == "robo" {
                e["tipo"] = Value::from("sondea");
            }
        }
    });
    dice(&p, "no tiene ningún paso «robo»");
}

#[test]
fn una_cabecera_que_no_cuadra_con_el_registro_no_pasa() {
    let p = rota("cabecera", |g, t, r| {
        t["grabacion"]["tokio"] = Value::from("1.0.0");
        g["nucleos"] = Value::from(64);
        r.maquina = "no-existe".into();
    });
    dice(&p, "se grabó con Tokio \"1.0.0\"");
    dice(&p, "nombra la máquina «no-existe»");
    let p = rota("nucleos", |g, _, _| g["nucleos"] = Value::from(64));
    dice(&p, "se grabó con 64 núcleos");
}

#[test]
fn un_paso_citado_que_ya_no_dice_lo_mismo_no_pasa() {
    let p = rota("cita", |_, _, r| {
        r.cita.push(trazas::Cita { paso: 1, dice: "una frase que no está".into() });
        r.cita.push(trazas::Cita { paso: 100_000, dice: "x".into() });
    });
    dice(&p, "el capítulo cita el paso 1");
    dice(&p, "el capítulo cita el paso 100000, que");
}

#[test]
fn un_archivo_que_no_es_json_no_pasa() {
    let original = registradas().into_iter().next().unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("trazas-rotas").join("no-json");
    for ruta in [&original.archivo, &original.registro] {
        let p = dir.join(ruta);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "{ esto no es JSON").unwrap();
    }
    let p = trazas::comprobar_una(&dir, &original, &Contexto::de(&raiz()));
    assert_eq!(p.len(), 2, "{p:#?}");
    assert!(p.iter().all(|x| x.mensaje.starts_with("no es JSON")), "{p:#?}");
}
