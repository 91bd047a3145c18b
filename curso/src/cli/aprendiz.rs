//! Las órdenes de quien aprende: una función corta por orden. La lógica vive
//! en [`curso::practica`]; aquí solo se elige el ejercicio y se escribe.

use std::io::{BufRead, Write};
use std::path::Path;

use curso::ejercicios::{self, Ejercicio};
use curso::practica::{self, Estado};
use curso::{libro, servidor};

pub fn lista(raiz: &Path) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let estados = practica::estados(raiz, &lista);
    print!("{}", practica::listado(&lista, &estados, true));
    match practica::siguiente(&estados) {
        Some(i) => println!("Siguiente: cargo curso verifica {}", lista[i].nombre),
        None => println!("¡Has terminado todos los ejercicios!"),
    }
    Ok(())
}

pub fn verifica(raiz: &Path, nombre: Option<&str>) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let Some(e) = elegir(raiz, &lista, nombre)? else {
        println!("¡Has terminado todos los ejercicios! Míralos con `cargo curso lista`.");
        return Ok(());
    };
    let r = practica::verificar(raiz, &lista, e)?;
    practica::anotar(raiz, &[(e, r.paso)])?;
    print!("{}", r.informe);
    if !r.paso {
        return Err(format!("«{}» todavía no pasa sus pruebas", e.nombre));
    }
    match practica::siguiente(&practica::estados(raiz, &lista)) {
        Some(i) => println!("Siguiente: «{}» ({}).", lista[i].nombre, lista[i].titulo),
        None => println!("¡Has terminado todos los ejercicios!"),
    }
    Ok(())
}

pub fn verifica_todos(raiz: &Path) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let resultados = practica::verificar_todos(raiz, &lista, |capitulo| eprintln!("… capítulo {capitulo}"))?;
    practica::anotar(raiz, &resultados)?;
    let estados = practica::estados(raiz, &lista);
    print!("{}", practica::listado(&lista, &estados, true));
    Ok(())
}

pub fn pista(raiz: &Path, nombre: Option<&str>) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    match elegir(raiz, &lista, nombre)? {
        Some(e) => {
            mostrar_pistas(e);
            Ok(())
        }
        None => Err("no te queda ningún ejercicio pendiente; di cuál: cargo curso pista NOMBRE".into()),
    }
}

pub fn solucion(raiz: &Path, nombre: &str, mostrar: bool) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let e = practica::buscar(&lista, nombre)?;
    let i = lista.iter().position(|x| x.nombre == e.nombre).unwrap_or_default();
    if practica::estados(raiz, &lista)[i] != Estado::Hecho && !mostrar {
        return Err(format!(
            "todavía no has superado «{n}». Prueba antes `cargo curso pista {n}`; si aun así quieres \
             verla: cargo curso solucion {n} --mostrar",
            n = e.nombre
        ));
    }
    println!("La solución de «{}» está en {}", e.nombre, e.carpeta_solucion().join(&e.archivo).display());
    println!("Ejecútala:        cargo run -p {}", e.paquete_solucion());
    println!("Sus pruebas:      cargo test -p {}", e.paquete_solucion());
    if !e.incorrectas.is_empty() {
        let rutas: Vec<String> =
            e.incorrectas.iter().map(|i| e.carpeta_solucion().join(i).display().to_string()).collect();
        println!("Respuestas que parecen buenas pero no lo son: {}", rutas.join(", "));
    }
    Ok(())
}

pub fn reinicia(raiz: &Path, nombre: &str, si: bool) -> Result<(), String> {
    let lista = ejercicios::cargar(raiz)?;
    let e = practica::buscar(&lista, nombre)?;
    let Some(copia) = practica::copia_para_reiniciar(raiz, e)? else {
        println!("«{}» ya tiene su código inicial; no hay nada que reiniciar.", e.nombre);
        return Ok(());
    };
    let relativa = copia.strip_prefix(raiz).unwrap_or(&copia).display().to_string();
    let pregunta = format!("¿Devuelvo «{}» a su código inicial? Tu versión se guardará en {relativa}.", e.nombre);
    if !si && !confirmar(&pregunta) {
        println!("No he cambiado nada.");
        return Ok(());
    }
    practica::reiniciar(raiz, e, &copia)?;
    println!("«{}» vuelve a su código inicial. Tu versión está en {relativa}.", e.nombre);
    Ok(())
}

pub fn libro(raiz: &Path, solo_construir: bool, puerto: u16, destino: Option<&Path>) -> Result<(), String> {
    let hecho = libro::construir_con(raiz, destino, (!solo_construir).then_some(servidor::RECARGA))?;
    if hecho.errores + hecho.avisos > 0 {
        return Err(format!(
            "el libro se construyó con {} errores y {} avisos (arriba los tienes)",
            hecho.errores, hecho.avisos
        ));
    }
    println!("Libro construido en {}", hecho.destino.display());
    if solo_construir {
        return Ok(());
    }
    println!("Este terminal queda ocupado sirviendo el libro; para pararlo, pulsa Ctrl+C.");
    servidor::servir_en_vivo(raiz, &hecho.destino, puerto, libro::reconstruir_en_vivo(raiz, &hecho.destino))
}

/// El ejercicio que se nombra o, sin nombre, el siguiente pendiente
/// (`None` si ya no queda ninguno).
pub fn elegir<'a>(raiz: &Path, lista: &'a [Ejercicio], nombre: Option<&str>) -> Result<Option<&'a Ejercicio>, String> {
    match nombre {
        Some(n) => practica::buscar(lista, n).map(Some),
        None => Ok(practica::siguiente(&practica::estados(raiz, lista)).map(|i| &lista[i])),
    }
}

pub fn mostrar_pistas(e: &Ejercicio) {
    println!("{} — {}", e.nombre, e.titulo);
    println!("Archivo: {}", e.carpeta().join(&e.archivo).display());
    for (i, pista) in e.pistas.iter().enumerate() {
        println!("Pista {}: {pista}", i + 1);
    }
}

/// Pregunta sí o no; sin respuesta (fin de la entrada), es que no.
pub fn confirmar(pregunta: &str) -> bool {
    print!("{pregunta} [s/N] ");
    let _ = std::io::stdout().flush();
    let mut linea = String::new();
    match std::io::stdin().lock().read_line(&mut linea) {
        Ok(0) | Err(_) => {
            println!();
            false
        }
        Ok(_) => matches!(linea.trim().to_lowercase().as_str(), "s" | "si" | "sí" | "y" | "yes"),
    }
}
