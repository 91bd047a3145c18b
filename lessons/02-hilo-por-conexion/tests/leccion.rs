//! Los dos programas de la lección corren en modo rápido y dicen lo que
//! midieron; las opciones que no valen dan un error claro.

use std::process::{Command, Output};

fn hilos(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_leccion-02")).args(args).output().expect("no arranca")
}

fn eco(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eco-bloqueante")).args(args).output().expect("no arranca")
}

fn texto(salida: &Output) -> String {
    assert!(salida.status.success(), "{}", String::from_utf8_lossy(&salida.stderr));
    String::from_utf8(salida.stdout.clone()).unwrap()
}

fn error(salida: &Output) -> String {
    assert_eq!(salida.status.code(), Some(2), "{}", String::from_utf8_lossy(&salida.stdout));
    let e = String::from_utf8(salida.stderr.clone()).unwrap();
    assert!(!e.contains("panicked"), "{e}");
    e
}

#[test]
fn hilos_en_modo_rapido() {
    let t = texto(&hilos(&["--rapido"]));
    for esperado in ["Hilos pedidos: 100", "Límites de esta máquina:", "Hilos creados:               100", "por hilo"]
    {
        assert!(t.contains(esperado), "falta «{esperado}» en:\n{t}");
    }
    let con_proc = std::path::Path::new("/proc/self/status").exists();
    let memoria = if con_proc { "Memoria residente (VmRSS):" } else { "no disponible (este sistema no tiene /proc)" };
    assert!(t.contains(memoria), "falta «{memoria}» en:\n{t}");
}

#[test]
fn hilos_rechaza_lo_que_pasa_del_tope() {
    let e = error(&hilos(&["--hilos", "20001"]));
    assert!(e.starts_with("error: pides 20 001 hilos"), "{e}");
    let e = error(&hilos(&["--hilos", "0"]));
    assert!(e.starts_with("error: --hilos debe estar entre 1 y"), "{e}");
}

#[test]
fn hilos_con_una_opcion_desconocida() {
    let e = error(&hilos(&["--tareas", "4"]));
    assert!(e.starts_with("error: opción desconocida «--tareas»"), "{e}");
}

#[test]
fn eco_en_modo_rapido() {
    let t = texto(&eco(&["--rapido"]));
    for esperado in [
        "Servidor de eco bloqueante en 127.0.0.1:",
        "Clientes conectados a la vez:    5",
        "Hilos del servidor a la vez:     5 (pico)",
        "Ecos:                            15 de 15 correctos",
    ] {
        assert!(t.contains(esperado), "falta «{esperado}» en:\n{t}");
    }
}

#[test]
fn eco_con_opciones_que_no_valen() {
    let e = error(&eco(&["--puerto", "80"]));
    assert!(e.starts_with("error: opción desconocida «--puerto»"), "{e}");
    let e = error(&eco(&["--clientes", "20001"]));
    assert!(e.starts_with("error: pides 20 001 hilos"), "{e}");
}
